// Per-key single flight: work for one key runs strictly one after another, work for
// different keys runs freely. The map only holds keys with work queued.
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  constructor(private readonly onError: (key: string, error: unknown) => void) {}

  run(key: string, work: () => Promise<void> | void): Promise<void> {
    const previous = this.tails.get(key);
    const next = (previous ? previous.then(work) : Promise.resolve().then(work)).catch((error) => this.onError(key, error));
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
}
