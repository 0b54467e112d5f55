// What is wrong with the running service right now, as its components report it
// (docs/architecture.md#when-background-work-fails). A component reports a problem when one
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
  private readonly changeListeners = new Set<() => void>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * `listener` hears each report, and each clear that removes a problem: components clear on
   * every success, most often with nothing to remove, and those are not news. Returns what
   * stops it (an edge thread replaced stops hearing).
   */
  onChanged(listener: () => void): () => void {
    const entry = () => listener();
    this.changeListeners.add(entry);
    return () => void this.changeListeners.delete(entry);
  }

  report(component: string, message: string): void {
    const known = this.current.get(component);
    if (known) {
      known.message = message;
      known.count++;
    } else {
      this.current.set(component, { component, message, since: this.now(), count: 1 });
    }
    this.changed();
  }

  clear(component: string): void {
    if (this.current.delete(component)) this.changed();
  }

  private changed(): void {
    for (const listener of this.changeListeners) listener();
  }

  get healthy(): boolean {
    return this.current.size === 0;
  }

  problems(): HealthProblem[] {
    return [...this.current.values()].map((problem) => ({ ...problem }));
  }
}
