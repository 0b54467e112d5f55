// Reserving units from the ledger and giving them back (docs/guarantees.md#quota-and-rate-across-threads; in a cluster also the rate window's, docs/design/cluster.md#rate-limit-across-nodes): compare-and-set loops over the QuotaLedger seam, which is all that every
// implementation has to offer.
import type { QuotaLedger } from './quotaLedger.js';

export interface Reservation {
  /** Units this reservation added (0 when the quota had no room). */
  units: number;
  /** The period's total granted right after it. */
  total: number;
}

/** Reserves up to `want` units, never taking the period's total beyond `cap` (null: no cap). */
export async function reserveUnits(
  ledger: QuotaLedger,
  account: string,
  period: string,
  want: number,
  cap: number | null,
): Promise<Reservation> {
  let entry = await ledger.read(account, period);
  for (;;) {
    const units = cap === null ? want : Math.max(0, Math.min(want, cap - entry.granted));
    if (units === 0) return { units: 0, total: entry.granted };
    const result = await ledger.swap(account, period, entry.revision, entry.granted + units);
    if (result.swapped) return { units, total: result.entry.granted };
    entry = result.current;
  }
}

/** Gives `units` reserved but never spent back to the period (a clean stop). */
export async function returnUnits(ledger: QuotaLedger, account: string, period: string, units: number): Promise<void> {
  let entry = await ledger.read(account, period);
  for (;;) {
    const result = await ledger.swap(account, period, entry.revision, Math.max(0, entry.granted - units));
    if (result.swapped) return;
    entry = result.current;
  }
}
