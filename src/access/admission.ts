// The checks between a valid token and the request body (docs/api.md#a-45): a suspended account (403),
// quota (403), then rate limit (429); a request that passes both is counted against both.
import { limits } from '../config.js';
import type { AccountRecord } from '../store/accountStore.js';
import type { Logger } from '../log.js';
import type { AccountTable } from './accountTable.js';
import { nextMonthStart } from './calendar.js';
import type { LimitFigures } from './limitHeaders.js';
import type { QuotaLedger } from '../seams/quotaLedger/quotaLedger.js';
import { QuotaMeter } from './quotaMeter.js';
import { RateLimiter, windowCount } from './rateLimiter.js';
import { type ReservationPolicy, type Standing, UnitMeter } from './unitMeter.js';

export type Decision =
  | { kind: 'admitted'; limits: LimitFigures }
  | { kind: 'quotaExhausted'; limits: LimitFigures; quota: number; resetsOn: string }
  | { kind: 'rateLimited'; limits: LimitFigures; retryAfterSeconds: number }
  /** The operator suspended the account (docs/api.md#a-53): refused before any count, without limit headers. */
  | { kind: 'suspended' }
  /** This server admits for as many accounts as its table has slots (limits.accountSlots). */
  | { kind: 'noRoom' };

/**
 * A decision now, or one that follows the account's next reservation (it rejects if that fails).
 * `Late` is undefined too when the request's waiter may leave before its turn (docs/http.md#pipelining).
 */
export type Admission<Late = Decision> = Decision | { kind: 'pending'; decided: Promise<Late> };

/** A request waiting for its account's next reservation, asked once its turn comes whether it still wants an answer. */
export interface Waiter {
  wanted(): boolean;
}

export interface AdmissionsDeps {
  table: AccountTable;
  ledger: QuotaLedger;
  /**
   * In a cluster, the ledger of rate windows every node reserves from (docs/design/cluster.md#rate-limit-across-nodes); absent, the window is this server's alone and no ledger is waited on.
   */
  rateLedger?: QuotaLedger | undefined;
  log: Logger;
  now(): number;
  /** limits.quotaReservation unless given. */
  reservation?: ReservationPolicy;
}

type Step = Decision | { kind: 'wait'; seen: number };

/** One decision for every refused suspended account: the refusal allocates nothing. */
const suspended: Decision = { kind: 'suspended' };

/**
 * Each account's checks and counts happen under its slot's lock in the table every thread shares,
 * so they hold for the whole server however many threads admit at once
 * (docs/guarantees.md#quota-and-rate-across-threads). An account with no reserved unit in hand
 * waits for its next reservation.
 */
export class Admissions {
  private readonly quota: QuotaMeter;
  private readonly rate: RateLimiter;
  /** The rate window's reserved units, in a cluster only. */
  private readonly window: UnitMeter | undefined;
  private readonly table: AccountTable;

  constructor(private readonly deps: AdmissionsDeps) {
    this.table = deps.table;
    const reservation = deps.reservation ?? limits.quotaReservation;
    this.quota = new QuotaMeter(deps.table, deps.ledger, deps.log, reservation);
    this.rate = new RateLimiter(deps.table);
    this.window = deps.rateLedger ? new UnitMeter(deps.table, deps.rateLedger, deps.log, reservation, windowCount) : undefined;
  }

  admit(account: AccountRecord, now: number): Admission;
  /** A pending decision is undefined, and nothing counted, when `waiter` no longer wants it once its turn comes. */
  admit(account: AccountRecord, now: number, waiter: Waiter): Admission<Decision | undefined>;
  admit(account: AccountRecord, now: number, waiter?: Waiter): Admission<Decision | undefined> {
    // Before the slot: a suspended account takes no room in the table and counts nothing.
    if (account.suspended !== undefined) return suspended;
    const base = this.table.slotOf(account.name);
    if (base < 0) return { kind: 'noRoom' };
    const step = this.step(base, account, now);
    return step.kind === 'wait' ? { kind: 'pending', decided: this.afterReservation(base, account, step.seen, waiter) } : step;
  }

  /** Gives reserved, unspent quota (and rate units of windows still running) back; for a clean stop, once no thread admits any more. */
  async returnUnspent(): Promise<void> {
    const now = this.deps.now();
    await Promise.all([this.quota.returnUnspent(now), this.window?.returnUnspent(now)]);
  }

  private async afterReservation(base: number, account: AccountRecord, seen: number, waiter?: Waiter): Promise<Decision | undefined> {
    for (;;) {
      await this.quota.changed(base, seen);
      this.table.lock(base);
      try {
        this.quota.endWait(base, seen);
      } finally {
        this.table.unlock(base);
      }
      // Asked in the same turn as the count below: a client gone by now is never counted.
      if (waiter && !waiter.wanted()) return undefined;
      const step = this.step(base, account, this.deps.now());
      if (step.kind !== 'wait') return step;
      seen = step.seen;
    }
  }

  private step(base: number, account: AccountRecord, now: number): Step {
    let step: Step;
    let reserveQuota = false;
    let reserveWindow = false;
    let rateRoom = 0;
    let quotaRoom = 0;
    this.table.lock(base);
    try {
      this.quota.startNewMonth(base, now);
      const window = this.rate.peek(base, account.rate, now);
      // In a cluster, what the window has left as this node last learned from the ledger
      // (docs/design/cluster.md#rate-limit-across-nodes); alone, exactly what it has left.
      const remaining = this.window ? Math.max(0, window.limit - this.window.used(base)) : window.remaining;
      const rate: Standing = this.window ? this.window.standing(base, window.limit) : remaining === 0 ? 'exhausted' : 'covered';
      const standing = this.quota.standing(base, account.quota);
      const resetsOn = nextMonthStart(now);
      if (standing === 'exhausted') {
        step = {
          kind: 'quotaExhausted',
          limits: limitFigures(window.limit, remaining, window.resetAt, account.quota, 0, resetsOn),
          quota: account.quota!,
          resetsOn,
        };
      } else if (rate === 'exhausted') {
        const quotaLeft = account.quota === null ? null : Math.max(0, account.quota - this.quota.used(base));
        step = {
          kind: 'rateLimited',
          limits: limitFigures(window.limit, 0, window.resetAt, account.quota, quotaLeft, resetsOn),
          retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)),
        };
      } else if (standing === 'reserve' || rate === 'reserve') {
        const seen = this.quota.wait(base);
        rateRoom = remaining;
        quotaRoom = account.quota === null ? Number.POSITIVE_INFINITY : account.quota - this.quota.used(base);
        reserveQuota = standing === 'reserve' && this.quota.claim(base);
        // No room in the quota (a quota of 0, not yet read): nothing is worth reserving of the
        // window, and a reservation of nothing would land at once and wake this request in a loop.
        reserveWindow = rate === 'reserve' && quotaRoom > 0 && this.window!.claim(base);
        step = { kind: 'wait', seen };
      } else {
        rateRoom = remaining - 1;
        reserveQuota = this.quota.spend(base, now, rateRoom);
        const quotaLeft = account.quota === null ? null : Math.max(0, account.quota - this.quota.used(base));
        if (this.window) {
          quotaRoom = quotaLeft ?? Number.POSITIVE_INFINITY;
          reserveWindow = this.window.spend(base, now, quotaRoom);
        } else {
          this.rate.hit(base);
        }
        step = {
          kind: 'admitted',
          limits: limitFigures(window.limit, remaining - 1, window.resetAt, account.quota, quotaLeft, resetsOn),
        };
      }
    } finally {
      this.table.unlock(base);
    }
    if (reserveQuota) void this.quota.reserve(base, account.name, account.quota, now, rateRoom);
    if (reserveWindow) void this.window!.reserve(base, account.name, account.rate.limit, now, quotaRoom);
    return step;
  }
}

function limitFigures(
  rateLimit: number,
  rateRemaining: number,
  rateResetAt: number,
  quota: number | null,
  quotaRemaining: number | null,
  quotaResetsOn: string,
): LimitFigures {
  return { rateLimit, rateRemaining, rateReset: Math.ceil(rateResetAt / 1000), quota, quotaRemaining, quotaResetsOn };
}
