// Wakes due work (refreshes, retries, rechecks) from the LMDB index ordered by due time, which
// survives restarts (docs/architecture.md#collection-path).
import { EMPTY, exhaustMap, from, timer, type Observable, type SchedulerLike } from 'rxjs';
import type { DueEventType } from '../machines/resource.js';

/** An entry of the due index (src/store/resourceStore.ts): the resource, when it is due, the event that wakes it. */
export interface DueWork {
  key: string;
  dueAt: number;
  event: DueEventType;
}

export interface DueIndex {
  dueBefore(now: number, limit: number): DueWork[];
}

/**
 * `room()` is how many more resources may be taken now (the caller's capacity left). Each scan
 * takes only that: due work waits in the index, not in memory, so a backlog of a million due
 * resources never floods the event loop that answers searches; a scan that finds nothing is cheap.
 */
export function dueWork(index: DueIndex, intervalMs: number, room: () => number, scheduler: SchedulerLike): Observable<DueWork> {
  return timer(0, intervalMs, scheduler).pipe(
    exhaustMap(() => {
      const limit = room();
      return limit > 0 ? from(index.dueBefore(scheduler.now(), limit)) : EMPTY;
    }),
  );
}
