// Admission over one shared account table, as several threads of a server see it: each
// "thread" is its own Admissions on its own view of the same SharedArrayBuffer.
import { AccountTable } from '../../src/access/accountTable.js';
import { type Admission, Admissions, type Decision } from '../../src/access/admission.js';
import { limitHeaderPairs } from '../../src/access/limitHeaders.js';
import type { QuotaLedger } from '../../src/seams/quotaLedger/quotaLedger.js';
import type { ReservationPolicy } from '../../src/access/unitMeter.js';
import type { RatePolicy } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import type { AccountRecord } from '../../src/store/accountStore.js';

export const november = Date.UTC(2026, 10, 23, 12);

export function account(name: string, quota: number | null, rate: RatePolicy = { limit: 1_000_000, windowMs: 60_000 }): AccountRecord {
  return { name, plan: 'free', quota, rate, createdAt: new Date(november).toISOString() };
}

/** `threads` Admissions sharing one table and one ledger, on a clock the test sets. */
export function threadsOn(ledger: QuotaLedger, threads: number, reservation?: ReservationPolicy, slots = 64) {
  const clock = { now: november };
  const table = AccountTable.create(slots);
  const admissions = Array.from(
    { length: threads },
    () =>
      new Admissions({
        table: new AccountTable(table.buffer),
        ledger,
        log: silentLogger,
        now: () => clock.now,
        reservation,
      }),
  );
  return { clock, table, admissions };
}

/**
 * `nodes` servers of a cluster, each with its own table and `threads` Admissions on it, all
 * reserving from one quota ledger and one ledger of rate windows, on a clock the test sets.
 */
export function clusterOn(ledger: QuotaLedger, rateLedger: QuotaLedger, nodes: number, threads: number, reservation?: ReservationPolicy) {
  const clock = { now: november };
  const tables = Array.from({ length: nodes }, () => AccountTable.create(64));
  const admissions = tables.map((table) =>
    Array.from(
      { length: threads },
      () =>
        new Admissions({
          table: new AccountTable(table.buffer),
          ledger,
          rateLedger,
          log: silentLogger,
          now: () => clock.now,
          ...(reservation ? { reservation } : {}),
        }),
    ),
  );
  return { clock, tables, admissions };
}

/** The decision of an admission, waiting for it when it is pending. */
export function decided(admission: Admission): Promise<Decision> {
  return admission.kind === 'pending' ? admission.decided : Promise.resolve(admission);
}

export function header(decision: Decision, name: string): string | undefined {
  return decision.kind === 'noRoom' || decision.kind === 'suspended'
    ? undefined
    : limitHeaderPairs(decision.limits).find(([key]) => key === name)?.[1];
}

/** Lets every callback already due run (a few turns, for chained promises and waitAsync). */
export async function turns(count = 3): Promise<void> {
  for (let index = 0; index < count; index++) await new Promise((resolve) => setImmediate(resolve));
}
