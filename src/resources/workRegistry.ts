// The one record of which resources this node is working on, a step or a collection counted once
// (docs/architecture.md#the-work-registry); steps of different resources run freely, paced by the SearchesFirstQueue.
import type { WorkKind, SearchesFirstQueue } from './searchesFirstQueue.js';

interface Entry {
  /** Steps queued or running. */
  steps: number;
  /** Settles when the last queued step has ended, however it ended. */
  tail: Promise<void>;
  collecting: boolean;
}

const ignore = () => undefined;

// It is the collection loop's CollectionClaims too (src/seams/collection/ports.ts), by shape: resources
// do not import the collection side.
export class WorkRegistry {
  private readonly entries = new Map<string, Entry>();
  private collectingCount = 0;

  constructor(private readonly pace: SearchesFirstQueue) {}

  /** Resources in work, each counted once. */
  get size(): number {
    return this.entries.size;
  }

  get collecting(): number {
    return this.collectingCount;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Runs `work` after every step already queued for `key`; settles as the work does. */
  step(key: string, work: () => Promise<void> | void, kind?: WorkKind): Promise<void> {
    const entry = this.entryFor(key);
    entry.steps++;
    const run = entry.tail.then(() => this.pace.run(work, kind));
    entry.tail = run.then(ignore, ignore);
    return run.finally(() => {
      entry.steps--;
      this.forgetIfIdle(key, entry);
    });
  }

  claimCollection(key: string): boolean {
    const entry = this.entryFor(key);
    if (entry.collecting) return false;
    entry.collecting = true;
    this.collectingCount++;
    return true;
  }

  releaseCollection(key: string): void {
    const entry = this.entries.get(key);
    if (!entry?.collecting) return;
    entry.collecting = false;
    this.collectingCount--;
    this.forgetIfIdle(key, entry);
  }

  /** Resolves once every step queued so far (and any they queue) has ended. */
  async drain(): Promise<void> {
    for (;;) {
      const tails: Promise<void>[] = [];
      for (const entry of this.entries.values()) if (entry.steps > 0) tails.push(entry.tail);
      if (tails.length === 0) return;
      await Promise.all(tails);
    }
  }

  private entryFor(key: string): Entry {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { steps: 0, tail: Promise.resolve(), collecting: false };
      this.entries.set(key, entry);
    }
    return entry;
  }

  private forgetIfIdle(key: string, entry: Entry): void {
    if (entry.steps === 0 && !entry.collecting && this.entries.get(key) === entry) this.entries.delete(key);
  }
}
