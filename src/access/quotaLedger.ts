// The durable record of quota units handed out per account and month, shared by every
// server on it (docs/guarantees.md, "Quota and rate across threads"). A seam: the LMDB
// implementation is src/store/usageStore.ts; a cluster plugs in a key-value store with
// revision-checked updates. Every implementation passes test/access/quotaLedger.contract.ts.

export interface LedgerEntry {
  /** Units reserved for the month so far, spent or not. */
  granted: number;
  /** Identifies the entry's state: a swap from a revision the entry no longer has is refused. */
  revision: number;
}

export type SwapResult = { swapped: true; entry: LedgerEntry } | { swapped: false; current: LedgerEntry };

export interface QuotaLedger {
  /** The entry of `account` for `month` ('YYYY-MM'); granted 0 when none was written. */
  read(account: string, month: string): Promise<LedgerEntry>;
  /**
   * Sets `granted` if the entry is still at `revision`, and resolves once that is durable;
   * otherwise resolves the entry as another writer left it.
   */
  swap(account: string, month: string, revision: number, granted: number): Promise<SwapResult>;
}

export interface Reservation {
  /** Units this reservation added (0 when the quota had no room). */
  units: number;
  /** The month's total granted right after it. */
  total: number;
}

/** Reserves up to `want` units, never taking the month's total beyond `quota` (null: no cap). */
export async function reserveUnits(
  ledger: QuotaLedger,
  account: string,
  month: string,
  want: number,
  quota: number | null,
): Promise<Reservation> {
  let entry = await ledger.read(account, month);
  for (;;) {
    const units = quota === null ? want : Math.max(0, Math.min(want, quota - entry.granted));
    if (units === 0) return { units: 0, total: entry.granted };
    const result = await ledger.swap(account, month, entry.revision, entry.granted + units);
    if (result.swapped) return { units, total: result.entry.granted };
    entry = result.current;
  }
}

/** Gives `units` reserved but never spent back to the month (a clean stop). */
export async function returnUnits(ledger: QuotaLedger, account: string, month: string, units: number): Promise<void> {
  let entry = await ledger.read(account, month);
  for (;;) {
    const result = await ledger.swap(account, month, entry.revision, Math.max(0, entry.granted - units));
    if (result.swapped) return;
    entry = result.current;
  }
}
