// Counts a server spends only from units it reserved in a ledger first: the month's quota, and in a
// cluster the rate window (docs/guarantees.md#quota-and-rate-across-threads, docs/design/cluster.md#rate-limit-across-nodes).
import type { Logger } from '../log.js';
import { CommitRefused } from '../store/storageSpace.js';
import type { QuotaLedger } from '../seams/quotaLedger/quotaLedger.js';
import { type AccountTable, field, timeField } from './accountTable.js';
import { type Reservation, reserveUnits, returnUnits } from '../seams/quotaLedger/reservations.js';

export type Standing = 'covered' | 'exhausted' | 'reserve';

/** The reservation a request waited for failed; why was logged where it was written, once (UnitMeter.reserve). */
export class ReservationNotWritten extends Error {
  override readonly name = 'ReservationNotWritten';
  constructor() {
    super('a reservation could not be written');
  }
}

export interface ReservationPolicy {
  maxBlock: number;
  horizonMs: number;
  waitMs: number;
}

/** Where one reserved count lives in a slot, and which ledger entry its units come from. */
export interface MeteredCount {
  /** Int32 fields of the slot: units spent, reserved (spent + unspent), held by anyone else (-1 until read), reserving now. */
  spent: number;
  granted: number;
  others: number;
  reserving: number;
  /** The ledger's name of the period the slot's counts are of. */
  period(table: AccountTable, base: number): string;
  /** Whether that period still runs at `now`, so that its unspent units are worth giving back. */
  running(table: AccountTable, base: number, now: number): boolean;
}

/**
 * One mechanism for every reserved count: a block is sized by the account's recent rate and the
 * requests waiting, the next one is reserved before the current one runs out, and a slow account
 * reserves one unit at a time. A count lives in the account's slot of the shared table; the
 * methods that take a slot are called with its lock held, `reserve` and `returnUnspent` take it
 * themselves.
 */
export class UnitMeter {
  constructor(
    protected readonly table: AccountTable,
    private readonly ledger: QuotaLedger,
    private readonly log: Logger,
    private readonly policy: ReservationPolicy,
    private readonly count: MeteredCount,
  ) {}

  /** Whether a request can be admitted now, is over `cap` (null: none), or needs a reservation first. */
  standing(base: number, cap: number | null): Standing {
    const { ints } = this.table;
    const { count } = this;
    const others = ints[base + count.others]!;
    const spent = ints[base + count.spent]!;
    if (cap !== null && others >= 0 && others + spent >= cap) return 'exhausted';
    if (ints[base + count.granted]! > spent) return 'covered';
    if (cap !== null && others >= 0 && others + ints[base + count.granted]! >= cap) return 'exhausted';
    return 'reserve';
  }

  /** Units of the period spent by anyone, as far as this server knows (once a reservation landed). */
  used(base: number): number {
    return Math.max(0, this.table.ints[base + this.count.others]!) + this.table.ints[base + this.count.spent]!;
  }

  /**
   * Spends one unit in hand. Returns true when the caller should start reserving the next
   * block now, while units are left (the account is fast enough to need one soon, and `room`,
   * the requests its other limit allows from now on, is more than it holds).
   */
  spend(base: number, now: number, room: number): boolean {
    const { ints } = this.table;
    const { count } = this;
    const spent = ints[base + count.spent]! + 1;
    ints[base + count.spent] = spent;
    if (ints[base + count.reserving] !== 0) return false;
    const expected = this.expected(base, now);
    const unspent = ints[base + count.granted]! - spent;
    if (expected <= 1 || room <= unspent || 2 * unspent >= Math.min(expected, this.policy.maxBlock)) return false;
    ints[base + count.reserving] = 1;
    return true;
  }

  /** Marks this count as being reserved; false when a reservation of it is already on its way. */
  claim(base: number): boolean {
    const at = base + this.count.reserving;
    if (this.table.ints[at] !== 0) return false;
    this.table.ints[at] = 1;
    return true;
  }

  /** Counts a request as waiting for a reservation of any count of the slot; returns the signal value to wait on. */
  wait(base: number): number {
    const { ints } = this.table;
    ints[base + field.waiting]! += 1;
    return Atomics.load(ints, base + field.signal);
  }

  /** After waking: stops counting the request as waiting; throws if the wait failed. */
  endWait(base: number, seen: number): void {
    const { ints } = this.table;
    ints[base + field.waiting]! -= 1;
    if (ints[base + field.failedSignal]! > seen) throw new ReservationNotWritten();
    if (Atomics.load(ints, base + field.signal) === seen) throw new Error(`no reservation within ${this.policy.waitMs} ms`);
  }

  /** Resolves once a reservation of any count of the slot ended (or the wait timed out). */
  changed(base: number, seen: number): Promise<void> {
    return this.table.changed(base, seen, this.policy.waitMs);
  }

  /**
   * Reserves the count's next block, up to `cap` (null: none) for its period; the caller claimed
   * it under the lock. `room`: requests the account's other limit allows from now on, a cap on
   * what is worth reserving.
   */
  async reserve(base: number, account: string, cap: number | null, now: number, room: number): Promise<void> {
    const { ints } = this.table;
    const { count } = this;
    this.table.lock(base);
    const period = count.period(this.table, base);
    const want = this.blockSize(base, now, room);
    this.table.unlock(base);
    let reservation: Reservation | undefined;
    let failure: unknown;
    try {
      if (want > 0) reservation = await reserveUnits(this.ledger, account, period, want, cap);
    } catch (error) {
      failure = error;
      // Refused by a full store: said once by the store (docs/storage.md#a-full-disk); the request waiting is answered 503.
      if (!(error instanceof CommitRefused)) this.log.error({ err: error, account, period }, 'reservation not written');
    }
    this.table.lock(base);
    if (failure !== undefined) ints[base + field.failedSignal] = ints[base + field.signal]! + 1;
    // Units of a period the slot has left meanwhile are not this period's to spend.
    if (reservation && count.period(this.table, base) === period) {
      const granted = ints[base + count.granted]! + reservation.units;
      ints[base + count.granted] = granted;
      ints[base + count.others] = Math.max(0, reservation.total - granted);
    }
    ints[base + count.reserving] = 0;
    this.table.signal(base);
    this.table.unlock(base);
  }

  /** Gives every unspent unit of a period still running back to the ledger (a clean stop). */
  async returnUnspent(now: number): Promise<void> {
    await Promise.all([...this.table.claimed()].map((base) => this.returnSlot(base, now)));
  }

  private async returnSlot(base: number, now: number): Promise<void> {
    const { ints } = this.table;
    const { count } = this;
    for (;;) {
      this.table.lock(base);
      const seen = Atomics.load(ints, base + field.signal);
      if (ints[base + count.reserving] !== 0) {
        // A reservation on its way lands first, so that its units are given back too.
        this.table.unlock(base);
        await this.changed(base, seen);
        continue;
      }
      const period = count.period(this.table, base);
      const unspent = count.running(this.table, base, now) ? ints[base + count.granted]! - ints[base + count.spent]! : 0;
      if (unspent > 0) ints[base + count.granted]! -= unspent;
      this.table.unlock(base);
      if (unspent > 0) await returnUnits(this.ledger, this.table.nameOf(base), period, unspent);
      return;
    }
  }

  /**
   * Units the account is expected to spend within the horizon: what it spent in the current
   * rate sample or the one before, per horizon, whichever is more. A sample runs for at least
   * one horizon, so one request just after another does not look like a burst, and a burst
   * is still seen for a whole horizon after it. Measured on the month's spend, which every
   * admitted request adds one to, so one sample serves every count of the slot.
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
   * more than `room`, and never leaving over maxBlock unspent.
   */
  private blockSize(base: number, now: number, room: number): number {
    const { ints } = this.table;
    const unspent = ints[base + this.count.granted]! - ints[base + this.count.spent]!;
    const wanted = Math.min(room, Math.max(1, this.expected(base, now), ints[base + field.waiting]!));
    return Math.min(this.policy.maxBlock, wanted) - unspent;
  }
}
