// Monthly quota per account (service-spec 8, decisions 15, 18). Counting is synchronous, so
// concurrent requests can never overshoot; the returned promise is the durable commit.
import type { UsageStore } from '../store/usageStore.js';
import { monthOf } from './calendar.js';

interface MonthCount {
  month: string;
  used: number;
}

export class QuotaMeter {
  private readonly counts = new Map<string, MonthCount>();

  constructor(private readonly usage: UsageStore) {}

  used(account: string, now: number): number {
    return this.current(account, now).used;
  }

  /** Counts one request and resolves when the new count is on disk. */
  count(account: string, now: number): Promise<boolean> {
    const current = this.current(account, now);
    current.used += 1;
    return this.usage.write(account, current.month, current.used);
  }

  private current(account: string, now: number): MonthCount {
    const month = monthOf(now);
    let current = this.counts.get(account);
    if (!current || current.month !== month) {
      current = { month, used: this.usage.used(account, month) };
      this.counts.set(account, current);
    }
    return current;
  }
}
