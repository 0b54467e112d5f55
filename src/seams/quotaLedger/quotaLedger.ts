// The durable record of units handed out per account and period, shared by every server on it
// (docs/guarantees.md#quota-and-rate-across-threads): quota months and, in a cluster, rate windows.

export interface LedgerEntry {
  /** Units reserved for the period so far, spent or not. */
  granted: number;
  /** Identifies the entry's state: a swap from a revision the entry no longer has is refused. */
  revision: number;
}

export type SwapResult = { swapped: true; entry: LedgerEntry } | { swapped: false; current: LedgerEntry };

/**
 * A seam: the LMDB ledger (usageStore.ts), a cluster's key-value store with revision-checked
 * updates (kvQuotaLedger.ts, docs/design/cluster.md#rate-limit-across-nodes for its rate
 * windows). Every implementation passes quotaLedger.contract.ts; reserving and giving back on top
 * of it is reservations.ts. Periods are months ('YYYY-MM') or rate windows.
 */
export interface QuotaLedger {
  /** The entry of `account` for `period`; granted 0 when none was written. */
  read(account: string, period: string): Promise<LedgerEntry>;
  /**
   * Sets `granted` if the entry is still at `revision`, and resolves once that is durable;
   * otherwise resolves the entry as another writer left it.
   */
  swap(account: string, period: string, revision: number, granted: number): Promise<SwapResult>;
}

/** The ledger's name of a rate window: `<length in ms>.<start in ms since the epoch>`. */
export function windowPeriod(windowMs: number, start: number): string {
  return `${windowMs}.${start}`;
}

/** The length in ms of the window a `windowPeriod` names; NaN for any other name. */
export function windowLengthOf(period: string): number {
  const match = /^(\d+)\.\d+$/.exec(period);
  return match ? Number(match[1]) : Number.NaN;
}
