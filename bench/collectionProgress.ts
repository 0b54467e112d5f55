// Counts completed collections from the outside, in the service's own LMDB (a second
// process may read it): a refreshed resource is re-indexed at `collected + freshness`
// (6 h by default), far from both leased ones (+1 min when committed; a lease held in memory
// leaves its due time as it was, docs/architecture.md#leases-in-memory) and the seeded ones (+30 days).
import { defaultPolicy } from '../src/config.js';
import { openDatabases, type Databases } from '../src/store/environment.js';

export interface CollectionCounts {
  at: number;
  /** Resources whose refresh has been persisted. */
  collected: number;
  /** Resources still due or leased. */
  waiting: number;
}

export class CollectionProgress {
  private readonly dbs: Databases;

  constructor(dataDir: string) {
    this.dbs = openDatabases(dataDir);
  }

  count(): CollectionCounts {
    this.dbs.root.resetReadTxn();
    const now = Date.now();
    const soon = now + defaultPolicy.freshForMs / 2;
    const later = now + defaultPolicy.freshForMs * 2;
    return {
      at: now,
      collected: this.dbs.due.getCount({ start: [soon], end: [later] }),
      waiting: this.dbs.due.getCount({ start: [0], end: [soon] }),
    };
  }

  close(): Promise<void> {
    return this.dbs.root.close();
  }
}

export const collectionsPerSecond = (from: CollectionCounts, to: CollectionCounts) =>
  ((to.collected - from.collected) * 1000) / (to.at - from.at);
