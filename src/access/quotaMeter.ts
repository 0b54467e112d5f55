// Monthly quota per account (service-spec 8, decisions 15, 18). Counting is synchronous, so
// concurrent requests can never overshoot; the returned promise is the durable commit.
import type { UsageStore } from '../store/usageStore.js';
import { monthOf } from './calendar.js';

interface MonthCount {
  account: string;
  month: string;
  used: number;
}

const endOfTurn = () => new Promise((resolve) => setImmediate(resolve));

export class QuotaMeter {
  private readonly counts = new Map<string, MonthCount>();
  /** Counts changed since the last flush (a month that just ended stays here until written). */
  private readonly unwritten = new Set<MonthCount>();
  private nextFlush: Promise<boolean> | null = null;
  /** The write on its way to disk: at most one, so a busy server commits fewer, larger batches. */
  private inFlight: Promise<boolean> | null = null;

  constructor(private readonly usage: UsageStore) {}

  used(account: string, now: number): number {
    return this.current(account, now).used;
  }

  /**
   * Counts one request and resolves when the new count is on disk. Every request counted in
   * one turn of the event loop shares one write per account (group commit, issue 4): a busy
   * account costs one put per commit, not one per request; lmdb groups the puts into commits.
   */
  count(account: string, now: number): Promise<boolean> {
    const current = this.current(account, now);
    current.used += 1;
    this.unwritten.add(current);
    if (!this.nextFlush) {
      const flush = () => this.flush();
      this.nextFlush = (this.inFlight ?? endOfTurn()).then(flush, flush);
    }
    return this.nextFlush;
  }

  private flush(): Promise<boolean> {
    const writes = [...this.unwritten].map(({ account, month, used }) => this.usage.write(account, month, used));
    this.unwritten.clear();
    this.nextFlush = null;
    const written = Promise.all(writes).then((results) => results.every(Boolean));
    this.inFlight = written;
    const done = () => {
      if (this.inFlight === written) this.inFlight = null;
    };
    written.then(done, done);
    return written;
  }

  private current(account: string, now: number): MonthCount {
    const month = monthOf(now);
    let current = this.counts.get(account);
    if (!current || current.month !== month) {
      current = { account, month, used: this.usage.used(account, month) };
      this.counts.set(account, current);
    }
    return current;
  }
}
