// Per-account rate limit over fixed windows aligned to the epoch, so that X-RateLimit-Reset is the
// same for every token of the account (docs/api.md#a-48).
import type { RatePolicy } from '../config.js';
import { type AccountTable, field, timeField } from './accountTable.js';
import type { MeteredCount } from './unitMeter.js';
import { windowPeriod } from '../seams/quotaLedger/quotaLedger.js';

export interface RateWindow {
  limit: number;
  remaining: number;
  /** When the current window ends, in ms since the epoch. */
  resetAt: number;
}

/**
 * The window lives in the account's slot of the shared table, so it is one window for every
 * thread; callers hold the slot's lock (src/access/accountTable.ts). In a cluster the window's
 * requests are also units reserved from the cluster's ledger (`windowCount` below).
 */
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
      // Units reserved for the window that ended are of no use in this one.
      ints[base + field.rateGranted] = 0;
      ints[base + field.rateOthers] = -1;
    }
    start = times[at + timeField.windowStart]!;
    return { limit: policy.limit, remaining: Math.max(0, policy.limit - ints[base + field.rateCount]!), resetAt: start + policy.windowMs };
  }

  /** Counts one request in the window `peek` rolled to. */
  hit(base: number): void {
    this.table.ints[base + field.rateCount]! += 1;
  }
}

/**
 * The rate window as a reserved count (docs/design/cluster.md#rate-limit-across-nodes): its requests
 * are `rateCount`, and its ledger entry is named by the window's length and start.
 */
export const windowCount: MeteredCount = {
  spent: field.rateCount,
  granted: field.rateGranted,
  others: field.rateOthers,
  reserving: field.rateReserving,
  period: (table, base) => {
    const at = table.timesOf(base);
    return windowPeriod(table.times[at + timeField.windowMs]!, table.times[at + timeField.windowStart]!);
  },
  running: (table, base, now) => {
    const at = table.timesOf(base);
    return now < table.times[at + timeField.windowStart]! + table.times[at + timeField.windowMs]!;
  },
};
