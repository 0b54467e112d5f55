// Entry counts without a walk over the entries: LMDB keeps them in each B-tree's header.
import type { Database } from 'lmdb';

/** How many entries a database holds, from its B-tree header (getCount would walk them all). */
export function entryCount(db: Pick<Database, 'getStats'>): number {
  const stats: { entryCount?: unknown } = db.getStats();
  return typeof stats.entryCount === 'number' ? stats.entryCount : 0;
}
