// What is wrong with the running service right now, as its components report it
// (docs/architecture.md, "When background work fails"). A component reports a problem when one
// of its pipelines fails and clears it once the pipeline works again; readiness reads this.
export interface HealthProblem {
  component: string;
  message: string;
  /** When the problem was first reported since it was last cleared. */
  since: number;
  /** How many times it was reported since then. */
  count: number;
}

/** Where a component reports its problems: the Health itself, or a thread's way to it. */
export interface ProblemReporter {
  report(component: string, message: string): void;
  clear(component: string): void;
}

export class Health implements ProblemReporter {
  private readonly current = new Map<string, HealthProblem>();

  constructor(private readonly now: () => number = Date.now) {}

  report(component: string, message: string): void {
    const known = this.current.get(component);
    if (known) {
      known.message = message;
      known.count++;
    } else {
      this.current.set(component, { component, message, since: this.now(), count: 1 });
    }
  }

  clear(component: string): void {
    this.current.delete(component);
  }

  get healthy(): boolean {
    return this.current.size === 0;
  }

  problems(): HealthProblem[] {
    return [...this.current.values()].map((problem) => ({ ...problem }));
  }
}
