// Monthly quota per account by durable reservations (docs/guarantees.md, "Quota and rate
// across threads"). A server spends only units it reserved on disk before (QuotaLedger), so
// an answer never waits for a commit of its own unless the account is slow: a block is sized
// by the account's recent rate and the requests waiting, the next one is reserved before the
// current one runs out, and a slow account reserves one unit at a time, counted exactly.
// The counts live in the account's slot of the shared table; the methods below that take a
// slot are called with its lock held, `reserve` and `returnUnspent` take it themselves.
import { limits } from '../config.js';
import type { Logger } from '../log.js';
import { type AccountTable, field, timeField } from './accountTable.js';
import { monthIndexOf, monthOfIndex } from './calendar.js';
import type { QuotaLedger } from '../store/quotaLedger.js';
import { type Reservation, reserveUnits, returnUnits } from './quotaLedger.js';

export type QuotaStanding = 'inHand' | 'exhausted' | 'reserve';

export interface ReservationPolicy {
  maxBlock: number;
  horizonMs: number;
  waitMs: number;
}

export class QuotaMeter {
  constructor(
    private readonly table: AccountTable,
    private readonly ledger: QuotaLedger,
    private readonly log: Logger,
    private readonly policy: ReservationPolicy = limits.quotaReservation,
  ) {}

  /** Starts the slot's counts afresh when `now` is in a later month than they are. */
  roll(base: number, now: number): void {
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

  /** Whether a request can be admitted now, is over the quota, or needs a reservation first. */
  standing(base: number, quota: number | null): QuotaStanding {
    const { ints } = this.table;
    const others = ints[base + field.others]!;
    const spent = ints[base + field.spent]!;
    if (quota !== null && others >= 0 && others + spent >= quota) return 'exhausted';
    if (ints[base + field.granted]! > spent) return 'inHand';
    if (quota !== null && others >= 0 && others + ints[base + field.granted]! >= quota) return 'exhausted';
    return 'reserve';
  }

  /** Requests of the month counted by anyone, as far as this server knows (once a reservation landed). */
  used(base: number): number {
    return Math.max(0, this.table.ints[base + field.others]!) + this.table.ints[base + field.spent]!;
  }

  /**
   * Spends one unit in hand. Returns true when the caller should start reserving the next
   * block now, while units are left (the account is fast enough to need one soon, and its
   * rate window, `rateRoom` more requests, has room for more than it holds).
   */
  spend(base: number, now: number, rateRoom: number): boolean {
    const { ints } = this.table;
    const spent = ints[base + field.spent]! + 1;
    ints[base + field.spent] = spent;
    if (ints[base + field.reserving] !== 0) return false;
    const expected = this.expected(base, now);
    const unspent = ints[base + field.granted]! - spent;
    if (expected <= 1 || rateRoom <= unspent || 2 * unspent >= Math.min(expected, this.policy.maxBlock)) return false;
    ints[base + field.reserving] = 1;
    return true;
  }

  /**
   * Counts a request as waiting for a reservation. Returns the signal value to wait on and
   * whether the caller is to start the reservation (nobody else is).
   */
  wait(base: number): { seen: number; start: boolean } {
    const { ints } = this.table;
    ints[base + field.waiting]! += 1;
    const start = ints[base + field.reserving] === 0;
    if (start) ints[base + field.reserving] = 1;
    return { seen: Atomics.load(ints, base + field.signal), start };
  }

  /** After waking: stops counting the request as waiting; throws if the wait failed. */
  woke(base: number, seen: number): void {
    const { ints } = this.table;
    ints[base + field.waiting]! -= 1;
    if (ints[base + field.failedSignal]! > seen) throw new Error('the quota reservation could not be written');
    if (Atomics.load(ints, base + field.signal) === seen) throw new Error(`no quota reservation within ${this.policy.waitMs} ms`);
  }

  /** Resolves once a reservation of the slot ended (or the wait timed out). */
  changed(base: number, seen: number): Promise<void> {
    return this.table.changed(base, seen, this.policy.waitMs);
  }

  /**
   * Reserves the slot's next block; the caller set `reserving` under the lock. `rateRoom`:
   * requests the account's rate window allows from now on, a cap on what is worth reserving.
   */
  async reserve(base: number, account: string, quota: number | null, now: number, rateRoom: number): Promise<void> {
    const { ints } = this.table;
    this.table.lock(base);
    const month = ints[base + field.month]!;
    const want = this.blockSize(base, now, rateRoom);
    this.table.unlock(base);
    let reservation: Reservation | undefined;
    let failure: unknown;
    try {
      if (want > 0) reservation = await reserveUnits(this.ledger, account, monthOfIndex(month), want, quota);
    } catch (error) {
      failure = error;
      this.log.error({ err: error, account }, 'quota reservation not written');
    }
    this.table.lock(base);
    if (failure !== undefined) ints[base + field.failedSignal] = ints[base + field.signal]! + 1;
    if (reservation && ints[base + field.month] === month) {
      const granted = ints[base + field.granted]! + reservation.units;
      ints[base + field.granted] = granted;
      ints[base + field.others] = Math.max(0, reservation.total - granted);
    }
    ints[base + field.reserving] = 0;
    this.table.signal(base);
    this.table.unlock(base);
  }

  /** Gives every unspent unit of the current month back to the ledger (a clean stop). */
  async returnUnspent(now: number): Promise<void> {
    const month = monthIndexOf(now);
    await Promise.all([...this.table.claimed()].map((base) => this.returnSlot(base, month)));
  }

  private async returnSlot(base: number, month: number): Promise<void> {
    const { ints } = this.table;
    for (;;) {
      this.table.lock(base);
      const seen = Atomics.load(ints, base + field.signal);
      if (ints[base + field.reserving] !== 0) {
        // A reservation on its way lands first, so that its units are given back too.
        this.table.unlock(base);
        await this.changed(base, seen);
        continue;
      }
      const unspent = ints[base + field.month] === month ? ints[base + field.granted]! - ints[base + field.spent]! : 0;
      if (unspent > 0) ints[base + field.granted]! -= unspent;
      this.table.unlock(base);
      if (unspent > 0) await returnUnits(this.ledger, this.table.nameOf(base), monthOfIndex(month), unspent);
      return;
    }
  }

  /**
   * Units the account is expected to spend within the horizon: what it spent in the current
   * rate sample or the one before, per horizon, whichever is more. A sample runs for at least
   * one horizon, so one request just after another does not look like a burst, and a burst
   * is still seen for a whole horizon after it.
   */
  private expected(base: number, now: number): number {
    const { ints, times } = this.table;
    const at = this.table.timesOf(base) + timeField.sampleAt;
    const horizon = this.policy.horizonMs;
    const elapsed = now - times[at]!;
    const current = Math.ceil(((ints[base + field.spent]! - ints[base + field.sampleSpent]!) * horizon) / Math.max(horizon, elapsed));
    if (elapsed >= horizon) {
      times[at] = now;
      ints[base + field.sampleSpent] = ints[base + field.spent]!;
      ints[base + field.previousSample] = current;
    }
    return Math.max(current, ints[base + field.previousSample]!);
  }

  /**
   * The next block: the expected spend or the waiting requests, whichever is more, but no
   * more than the rate window lets through, and never leaving over maxBlock unspent.
   */
  private blockSize(base: number, now: number, rateRoom: number): number {
    const { ints } = this.table;
    const unspent = ints[base + field.granted]! - ints[base + field.spent]!;
    const wanted = Math.min(rateRoom, Math.max(1, this.expected(base, now), ints[base + field.waiting]!));
    return Math.min(this.policy.maxBlock, wanted) - unspent;
  }
}
