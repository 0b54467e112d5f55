// Per-key single flight: work for one key runs strictly one after another, work for
// different keys runs freely. The map only holds keys with work queued.
//
// Work starts at most `perTurn()` pieces per turn of the event loop, the rest in later turns:
// promise chains would otherwise run a whole due-scan or collection burst before the loop
// reads another socket, and searches on the same thread would wait behind it.
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly ready: Array<() => void> = [];
  private turnScheduled = false;

  constructor(
    private readonly onError: (key: string, error: unknown) => void,
    private readonly perTurn: () => number,
  ) {}

  run(key: string, work: () => Promise<void> | void): Promise<void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(() => this.nextTurnSlot()).then(work).catch((error) => this.onError(key, error));
    this.tails.set(key, next);
    void next.then(() => {
      if (this.tails.get(key) === next) this.tails.delete(key);
    });
    return next;
  }

  get size(): number {
    return this.tails.size;
  }

  /** Resolves once every queued piece of work has finished. */
  async drain(): Promise<void> {
    while (this.tails.size > 0) await Promise.all(this.tails.values());
  }

  private nextTurnSlot(): Promise<void> {
    return new Promise((resolve) => {
      this.ready.push(resolve);
      this.scheduleTurn();
    });
  }

  private scheduleTurn(): void {
    if (this.turnScheduled) return;
    this.turnScheduled = true;
    setImmediate(() => {
      this.turnScheduled = false;
      for (const start of this.ready.splice(0, this.perTurn())) start();
      if (this.ready.length > 0) this.scheduleTurn();
    });
  }
}
