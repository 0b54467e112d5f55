// The due index as a server alone scans it (docs/architecture.md#leases-in-memory). A resource
// whose lease is held in memory keeps its due entry at the time it fell due, among the oldest of
// a backlog: a scan passes over it, and goes on after the last entry it read rather than reading
// the leased ones again every scan. Every `rescanMs` it reads from the start again, for the
// entries it passed whose lease has ended since, or whose step ended without moving them.
import type { DueIndex, DueWork } from '../../streams/dueWork.js';

/** The store's due index, read on from an entry. */
export interface ResumableDueIndex {
  /** At most `limit` entries due by `now`, oldest first; only those after `after` when given. */
  dueBefore(now: number, limit: number, after?: DueWork): DueWork[];
}

export interface DueIndexPastLeasesOptions {
  index: ResumableDueIndex;
  /** Whether `key` holds a lease in memory that has not ended at `now`. */
  leased(key: string, now: number): boolean;
  /** Whether a step for `key` is queued or running, or it is being collected. */
  inWork(key: string): boolean;
  rescanMs: number;
}

export function dueIndexPastLeases({ index, leased, inWork, rescanMs }: DueIndexPastLeasesOptions): DueIndex {
  let after: DueWork | undefined;
  let fromStartAt = Number.NEGATIVE_INFINITY;
  return {
    dueBefore(now, limit) {
      if (now - fromStartAt >= rescanMs) {
        after = undefined;
        fromStartAt = now;
      }
      const taken: DueWork[] = [];
      for (;;) {
        const read = index.dueBefore(now, limit, after);
        for (const entry of read) {
          after = entry;
          if (inWork(entry.key) || leased(entry.key, now)) continue;
          taken.push(entry);
          if (taken.length === limit) return taken;
        }
        // The end of what is due. Work that falls due later is written after the last entry read,
        // bar a commit that lands after a scan passed its due time: the next scan from the start finds it.
        if (read.length < limit) return taken;
      }
    },
  };
}
