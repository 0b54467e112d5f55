// Wakes due work (refreshes, retries, rechecks) from the LMDB index ordered by due time.
// The index is on disk, so due work survives restarts; a scan that finds nothing is cheap.
import { exhaustMap, from, timer, type Observable, type SchedulerLike } from 'rxjs';
import type { DueEntry } from '../src/store/resourceStore.js';

export interface DueIndex {
  dueBefore(now: number, limit: number): DueEntry[];
}

export function dueWork(index: DueIndex, intervalMs: number, batch: number, scheduler: SchedulerLike): Observable<DueEntry> {
  return timer(0, intervalMs, scheduler).pipe(exhaustMap(() => from(index.dueBefore(scheduler.now(), batch))));
}
