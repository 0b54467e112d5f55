// Sends the resources the due index says are due their due event, as room in the work registry allows
// (docs/architecture.md#the-path-of-a-collection); a failing scan starts again (docs/architecture.md#when-background-work-fails).
import { retry, timer, type SchedulerLike, type Subscription } from 'rxjs';
import { dueWork, type DueIndex } from '../../streams/dueWork.js';
import type { Health } from '../health.js';
import type { Logger } from '../log.js';
import type { ResourceHost } from './host.js';
import type { WorkRegistry } from './workRegistry.js';

export interface DueSchedulerOptions {
  index: DueIndex;
  resourceHost: Pick<ResourceHost, 'send'>;
  work: Pick<WorkRegistry, 'size'>;
  /** Resources in work at most; due work beyond waits in the index. */
  maxInWork: number;
  /** At most this many taken per scan. */
  scanBatch: number;
  scanMs: number;
  restartDelayMs: number;
  now(): number;
  scheduler: SchedulerLike;
  log: Logger;
  health: Health;
}

export const dueWorkHealth = 'due work';

export function startDueScheduler(options: DueSchedulerOptions): Subscription {
  const room = () => Math.min(options.scanBatch, options.maxInWork - options.work.size);
  // A scan that succeeds clears a problem an earlier one reported.
  const index: DueIndex = {
    dueBefore(now, limit) {
      const due = options.index.dueBefore(now, limit);
      options.health.clear(dueWorkHealth);
      return due;
    },
  };
  return dueWork(index, options.scanMs, room, options.scheduler)
    .pipe(
      retry({
        delay: (error: unknown) => {
          options.log.error({ err: error }, 'due work scan failed; it restarts');
          options.health.report(dueWorkHealth, `due work scan failed: ${error instanceof Error ? error.message : String(error)}`);
          return timer(options.restartDelayMs, options.scheduler);
        },
      }),
    )
    .subscribe((due) => void options.resourceHost.send(due.key, { type: due.event, at: options.now() }));
}
