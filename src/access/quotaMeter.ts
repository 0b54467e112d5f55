// Monthly quota per account by durable reservations: a server spends only units it reserved on disk
// before, so an answer waits for no commit of its own unless the account is slow (docs/guarantees.md#quota-and-rate-across-threads).
import { limits } from '../config.js';
import type { Logger } from '../log.js';
import type { QuotaLedger } from '../seams/quotaLedger/quotaLedger.js';
import { type AccountTable, field } from './accountTable.js';
import { monthIndexOf, monthOfIndex } from './calendar.js';
import { type MeteredCount, type ReservationPolicy, UnitMeter } from './unitMeter.js';

/** The quota's units: reserved per account and month ('YYYY-MM'). */
const monthCount: MeteredCount = {
  spent: field.spent,
  granted: field.granted,
  others: field.others,
  reserving: field.reserving,
  period: (table, base) => monthOfIndex(table.ints[base + field.month]!),
  running: (table, base, now) => table.ints[base + field.month] === monthIndexOf(now),
};

/**
 * The month the quota counts in, over the reserving of src/access/unitMeter.ts (units from the
 * QuotaLedger). The counts live in the account's slot of the shared table; `startNewMonth` is
 * called with the slot's lock held.
 */
export class QuotaMeter extends UnitMeter {
  constructor(table: AccountTable, ledger: QuotaLedger, log: Logger, policy: ReservationPolicy = limits.quotaReservation) {
    super(table, ledger, log, policy, monthCount);
  }

  /** Starts the slot's counts afresh when `now` is in a later month than they are. */
  startNewMonth(base: number, now: number): void {
    const { ints } = this.table;
    const month = monthIndexOf(now);
    if (month <= ints[base + field.month]!) return;
    // Units reserved for the month that ended and not spent stay counted in it (one block at most).
    ints[base + field.month] = month;
    ints[base + field.spent] = 0;
    ints[base + field.granted] = 0;
    ints[base + field.others] = -1;
    ints[base + field.sampleSpent] = 0;
    ints[base + field.previousSample] = 0;
  }
}
