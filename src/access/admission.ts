// The checks between a valid token and the request body (docs/api.md#a-45): a suspended account
// (403), quota (403), then rate limit (429); a request that passes both is counted against both. Each account's checks
// and counts happen under its slot's lock in the table every thread shares, so they hold for
// the whole server however many threads admit at once (docs/guarantees.md, "Quota and rate
// across threads"). An account with no reserved unit in hand waits for its next reservation.
import type { AccountRecord } from '../store/accountStore.js';
import type { Logger } from '../log.js';
import type { AccountTable } from './accountTable.js';
import { nextMonthStart } from './calendar.js';
import type { QuotaLedger } from '../store/quotaLedger.js';
import { QuotaMeter, type ReservationPolicy } from './quotaMeter.js';
import { RateLimiter } from './rateLimiter.js';

export type Decision =
  | { kind: 'admitted'; headers: Array<[string, string]> }
  | { kind: 'quotaExhausted'; headers: Array<[string, string]>; quota: number; resetsOn: string }
  | { kind: 'rateLimited'; headers: Array<[string, string]>; retryAfterSeconds: number }
  /** The operator suspended the account (docs/api.md#a-53): refused before any count, without limit headers. */
  | { kind: 'suspended' }
  /** This server admits for as many accounts as its table has slots (limits.accountSlots). */
  | { kind: 'noRoom' };

/** A decision now, or one that follows the account's next reservation (it rejects if that fails). */
export type Admission = Decision | { kind: 'pending'; decided: Promise<Decision> };

export interface AdmissionsDeps {
  table: AccountTable;
  ledger: QuotaLedger;
  log: Logger;
  now(): number;
  /** limits.quotaReservation unless given. */
  reservation?: ReservationPolicy;
}

type Step = Decision | { kind: 'wait'; seen: number };

/** One decision for every refused suspended account: the refusal allocates nothing. */
const suspended: Decision = { kind: 'suspended' };

export class Admissions {
  private readonly quota: QuotaMeter;
  private readonly rate: RateLimiter;
  private readonly table: AccountTable;

  constructor(private readonly deps: AdmissionsDeps) {
    this.table = deps.table;
    this.quota = new QuotaMeter(deps.table, deps.ledger, deps.log, deps.reservation);
    this.rate = new RateLimiter(deps.table);
  }

  admit(account: AccountRecord, now: number): Admission {
    // Before the slot: a suspended account takes no room in the table and counts nothing.
    if (account.suspended !== undefined) return suspended;
    const base = this.table.slotOf(account.name);
    if (base < 0) return { kind: 'noRoom' };
    const step = this.step(base, account, now);
    return step.kind === 'wait' ? { kind: 'pending', decided: this.afterReservation(base, account, step.seen) } : step;
  }

  /** Gives reserved, unspent quota back; for a clean stop, once no thread admits any more. */
  returnUnspent(): Promise<void> {
    return this.quota.returnUnspent(this.deps.now());
  }

  private async afterReservation(base: number, account: AccountRecord, seen: number): Promise<Decision> {
    for (;;) {
      await this.quota.changed(base, seen);
      this.table.lock(base);
      try {
        this.quota.woke(base, seen);
      } finally {
        this.table.unlock(base);
      }
      const step = this.step(base, account, this.deps.now());
      if (step.kind !== 'wait') return step;
      seen = step.seen;
    }
  }

  private step(base: number, account: AccountRecord, now: number): Step {
    let step: Step;
    let reserve = false;
    let rateRoom = 0;
    this.table.lock(base);
    try {
      this.quota.roll(base, now);
      const window = this.rate.peek(base, account.rate, now);
      const standing = this.quota.standing(base, account.quota);
      const resetsOn = nextMonthStart(now);
      if (standing === 'exhausted') {
        step = {
          kind: 'quotaExhausted',
          headers: limitHeaders(window.limit, window.remaining, window.resetAt, account.quota, 0, resetsOn),
          quota: account.quota!,
          resetsOn,
        };
      } else if (window.remaining === 0) {
        const quotaLeft = account.quota === null ? null : Math.max(0, account.quota - this.quota.used(base));
        step = {
          kind: 'rateLimited',
          headers: limitHeaders(window.limit, 0, window.resetAt, account.quota, quotaLeft, resetsOn),
          retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)),
        };
      } else if (standing === 'reserve') {
        const waiting = this.quota.wait(base);
        reserve = waiting.start;
        rateRoom = window.remaining;
        step = { kind: 'wait', seen: waiting.seen };
      } else {
        this.rate.hit(base);
        rateRoom = window.remaining - 1;
        reserve = this.quota.spend(base, now, rateRoom);
        const quotaLeft = account.quota === null ? null : Math.max(0, account.quota - this.quota.used(base));
        step = {
          kind: 'admitted',
          headers: limitHeaders(window.limit, window.remaining - 1, window.resetAt, account.quota, quotaLeft, resetsOn),
        };
      }
    } finally {
      this.table.unlock(base);
    }
    if (reserve) void this.quota.reserve(base, account.name, account.quota, now, rateRoom);
    return step;
  }
}

function limitHeaders(
  rateLimit: number,
  rateRemaining: number,
  rateResetAt: number,
  quota: number | null,
  quotaRemaining: number | null,
  quotaResetsOn: string,
): Array<[string, string]> {
  const headers: Array<[string, string]> = [
    ['X-RateLimit-Limit', String(rateLimit)],
    ['X-RateLimit-Remaining', String(rateRemaining)],
    ['X-RateLimit-Reset', String(Math.ceil(rateResetAt / 1000))],
  ];
  if (quota !== null) {
    headers.push(['X-Quota-Limit', String(quota)], ['X-Quota-Remaining', String(quotaRemaining)], ['X-Quota-Reset', quotaResetsOn]);
  }
  return headers;
}
