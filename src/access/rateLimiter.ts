// Per-account rate limit over fixed windows aligned to the epoch, so that the reset time in
// X-RateLimit-Reset is the same for every token of the account (docs/api.md#a-48). The window
// lives in the account's slot of the shared table, so it is one window for every thread;
// callers hold the slot's lock (src/access/accountTable.ts).
import type { RatePolicy } from '../config.js';
import { type AccountTable, field, timeField } from './accountTable.js';

export interface RateWindow {
  limit: number;
  remaining: number;
  /** When the current window ends, in ms since the epoch. */
  resetAt: number;
}

export class RateLimiter {
  constructor(private readonly table: AccountTable) {}

  /** The state of the account's window, without counting anything. */
  peek(base: number, policy: RatePolicy, now: number): RateWindow {
    const { ints, times } = this.table;
    const at = this.table.timesOf(base);
    let start = now - (now % policy.windowMs);
    // Only forward: a thread that read the clock just before another rolled the window on
    // must not roll it back (and reset its count).
    if (times[at + timeField.windowMs] !== policy.windowMs || start > times[at + timeField.windowStart]!) {
      times[at + timeField.windowStart] = start;
      times[at + timeField.windowMs] = policy.windowMs;
      ints[base + field.rateCount] = 0;
    }
    start = times[at + timeField.windowStart]!;
    return { limit: policy.limit, remaining: Math.max(0, policy.limit - ints[base + field.rateCount]!), resetAt: start + policy.windowMs };
  }

  /** Counts one request in the window `peek` rolled to. */
  hit(base: number): void {
    this.table.ints[base + field.rateCount]! += 1;
  }
}
