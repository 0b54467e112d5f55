// Monthly usage per account, as the LMDB quota ledger: the units reserved for the month by every
// server on this directory, spent or not (docs/storage.md#units-in-hand).
import { DailyUsage } from '../../store/dailyUsage.js';
import type { LedgerEntry, QuotaLedger, SwapResult } from './quotaLedger.js';
import type { Databases } from '../../store/environment.js';
import { ReservedUnits } from '../reservedUnits/reservedUnits.js';

export class UsageStore implements QuotaLedger {
  private readonly days: DailyUsage;
  private readonly reservedUnits: ReservedUnits;

  /** `now`: the clock that dates each change for the per-day counts. */
  constructor(
    private readonly dbs: Databases,
    private readonly now: () => number = Date.now,
  ) {
    this.days = new DailyUsage(dbs);
    this.reservedUnits = new ReservedUnits(dbs);
  }

  /**
   * Units reserved for the month by every server, spent or not: what the quota is enforced on. A
   * clean stop gives unspent units back, so at rest it is the number of requests counted.
   */
  used(account: string, month: string): number {
    return this.dbs.usage.get([account, month]) ?? 0;
  }

  /**
   * Requests counted in the month, as every display shows them (docs/operations.md#accounts):
   * the units reserved less those the running server holds in hand, as recorded at most about a second ago.
   */
  counted(account: string, month: string): number {
    return Math.max(0, this.used(account, month) - this.reservedUnits.of(account, month));
  }

  read(account: string, month: string): Promise<LedgerEntry> {
    const granted = this.used(account, month);
    return Promise.resolve({ granted, revision: granted });
  }

  /**
   * The stored count is its own revision: every reservation is decided from the count alone,
   * so a count that went away and came back (a reservation, then a give-back) is the same
   * state, and a swap from it is as right as it was. LMDB serializes write transactions
   * across threads and processes, so the check and the write cannot interleave with another.
   */
  swap(account: string, month: string, revision: number, granted: number): Promise<SwapResult> {
    return this.dbs.root.transaction((): SwapResult => {
      const current = this.used(account, month);
      if (current !== revision) return { swapped: false, current: { granted: current, revision: current } };
      this.dbs.usage.put([account, month], granted);
      // The per-day counts change in the same transaction.
      this.days.record(account, month, granted - current, this.now());
      return { swapped: true, entry: { granted, revision: granted } };
    });
  }
}
