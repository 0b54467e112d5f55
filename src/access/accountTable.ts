// Per-account admission state shared by every thread of one server: a fixed-size open-addressing
// table in a SharedArrayBuffer (docs/guarantees.md#quota-and-rate-across-threads).
import { limits } from '../config.js';

declare global {
  // Node 20 has Atomics.waitAsync (V8 8.7+); TypeScript declares it from lib es2024 on.
  interface Atomics {
    waitAsync(
      array: Int32Array,
      index: number,
      value: number,
      timeoutMs?: number,
    ): { async: false; value: 'not-equal' | 'timed-out' } | { async: true; value: Promise<'ok' | 'timed-out'> };
  }
}

/** Int32 fields of a slot. */
export const field = {
  /** 0 empty, 1 being claimed, 2 ready */
  state: 0,
  hashHigh: 1,
  hashLow: 2,
  lock: 3,
  /** year * 12 + month index of the counts below; 0 before the first admission */
  month: 4,
  /** requests admitted this month by this server */
  spent: 5,
  /** units this server reserved durably this month (spent + unspent) */
  granted: 6,
  /** units of the month held by anyone else (other servers, earlier runs); -1 until read */
  others: 7,
  /** 1 while a thread is reserving the next quota block */
  reserving: 8,
  /** requests of any thread waiting for a reservation (of the quota or the rate window) */
  waiting: 9,
  /** bumped (and notified) whenever a reservation of either ends */
  signal: 10,
  /** the signal value of the last reservation that failed; -1 for none */
  failedSignal: 11,
  /** requests admitted in the current rate window by this server */
  rateCount: 12,
  /** `spent` when the current rate sample began */
  sampleSpent: 13,
  nameLength: 14,
  /** units spent in the previous rate sample, per horizon */
  previousSample: 15,
  /** In a cluster (docs/design/cluster.md#rate-limit-across-nodes): units of the rate window this server reserved */
  rateGranted: 16,
  /** In a cluster: units of the rate window held by other servers, as last read; -1 until read */
  rateOthers: 17,
  /** In a cluster: 1 while a thread is reserving the rate window's next block */
  rateReserving: 18,
} as const;

/** Float64 fields of a slot. */
export const timeField = {
  windowStart: 0,
  windowMs: 1,
  /** When the current rate sample began (ms since the epoch). */
  sampleAt: 2,
} as const;

export const intsPerSlot = 19;
const timesPerSlot = 4;
/** Account names are 1-64 ASCII characters (the `accounts` command checks them). */
export const maxNameBytes = 64;

const empty = 0;
const claiming = 1;
const ready = 2;

/**
 * A slot's fields are read and written only under its lock (a futex-style mutex on Atomics), so
 * quota, rate window and reservation bookkeeping change together, as on one thread.
 */
export class AccountTable {
  readonly ints: Int32Array;
  readonly times: Float64Array;
  private readonly names: Uint8Array;
  private readonly slots: number;
  /** This thread's memo of claimed slots: the hash and probe run once per account and thread. */
  private readonly slotByName = new Map<string, number>();
  private readonly encoder = new TextEncoder();

  /** A table of `slots` slots (a power of two) on a new buffer. */
  static create(slots: number = limits.accountSlots): AccountTable {
    const size = 2 ** Math.ceil(Math.log2(Math.max(2, slots)));
    return new AccountTable(new SharedArrayBuffer(size * (intsPerSlot * 4 + timesPerSlot * 8 + maxNameBytes)));
  }

  /** Another thread's view of the same table. */
  constructor(readonly buffer: SharedArrayBuffer) {
    this.slots = buffer.byteLength / (intsPerSlot * 4 + timesPerSlot * 8 + maxNameBytes);
    this.times = new Float64Array(buffer, 0, this.slots * timesPerSlot);
    this.ints = new Int32Array(buffer, this.times.byteLength, this.slots * intsPerSlot);
    this.names = new Uint8Array(buffer, this.times.byteLength + this.ints.byteLength, this.slots * maxNameBytes);
  }

  /**
   * Index of the slot's first Int32 field; -1 when the table is full or the name too long. Each
   * account claims a slot once, found by a 64-bit hash of its name and confirmed by the name
   * itself, which the slot keeps so that a clean stop can give unspent reservations back.
   */
  slotOf(name: string): number {
    const known = this.slotByName.get(name);
    if (known !== undefined) return known;
    const bytes = this.encoder.encode(name);
    if (bytes.length === 0 || bytes.length > maxNameBytes) return -1;
    const [high, low] = hash64(bytes);
    const mask = this.slots - 1;
    for (let probe = 0, index = low & mask; probe < this.slots; probe++, index = (index + 1) & mask) {
      const base = index * intsPerSlot;
      let state = Atomics.compareExchange(this.ints, base + field.state, empty, claiming);
      if (state === empty) {
        this.claim(index, high, low, bytes);
        this.slotByName.set(name, base);
        return base;
      }
      // Another thread is writing this slot's key: it takes a few stores.
      while (state === claiming) state = Atomics.load(this.ints, base + field.state);
      if (this.ints[base + field.hashHigh] === high && this.ints[base + field.hashLow] === low && this.holds(index, bytes)) {
        this.slotByName.set(name, base);
        return base;
      }
    }
    return -1;
  }

  /** The account name a ready slot belongs to. */
  nameOf(base: number): string {
    const start = (base / intsPerSlot) * maxNameBytes;
    return Buffer.from(this.names.subarray(start, start + this.ints[base + field.nameLength]!)).toString('utf8');
  }

  /** Index of the slot's first Float64 field. */
  timesOf(base: number): number {
    return (base / intsPerSlot) * timesPerSlot;
  }

  /** Every claimed slot, for a sweep such as giving reservations back. */
  *claimed(): Generator<number> {
    for (let index = 0; index < this.slots; index++) {
      const base = index * intsPerSlot;
      if (Atomics.load(this.ints, base + field.state) === ready) yield base;
    }
  }

  lock(base: number): void {
    const at = base + field.lock;
    // 0 free, 1 held, 2 held with waiters (Drepper, "Futexes Are Tricky", mutex 2).
    let state = Atomics.compareExchange(this.ints, at, 0, 1);
    if (state === 0) return;
    if (state !== 2) state = Atomics.exchange(this.ints, at, 2);
    while (state !== 0) {
      Atomics.wait(this.ints, at, 2);
      state = Atomics.exchange(this.ints, at, 2);
    }
  }

  unlock(base: number): void {
    const at = base + field.lock;
    if (Atomics.sub(this.ints, at, 1) !== 1) {
      Atomics.store(this.ints, at, 0);
      Atomics.notify(this.ints, at, 1);
    }
  }

  /** Wakes every thread waiting for this slot's next reservation to end. */
  signal(base: number): void {
    Atomics.add(this.ints, base + field.signal, 1);
    Atomics.notify(this.ints, base + field.signal);
  }

  /** Resolves once the slot's signal differs from `seen`, or after `timeoutMs`. */
  async changed(base: number, seen: number, timeoutMs: number): Promise<void> {
    // A pending waitAsync does not keep a thread's event loop alive: a timer does, and ends
    // the wait when it runs out by waking this slot's waiters (each checks what changed).
    const waited = Atomics.waitAsync(this.ints, base + field.signal, seen);
    if (!waited.async) return;
    const timer = setTimeout(() => Atomics.notify(this.ints, base + field.signal), timeoutMs);
    await waited.value;
    clearTimeout(timer);
  }

  private claim(index: number, high: number, low: number, bytes: Uint8Array): void {
    const base = index * intsPerSlot;
    const times = index * timesPerSlot;
    this.ints[base + field.hashHigh] = high;
    this.ints[base + field.hashLow] = low;
    this.names.set(bytes, index * maxNameBytes);
    this.ints[base + field.nameLength] = bytes.length;
    this.ints[base + field.others] = -1;
    this.ints[base + field.rateOthers] = -1;
    this.ints[base + field.failedSignal] = -1;
    this.times[times + timeField.sampleAt] = 0;
    // The store publishes every write above to the threads that load `ready`.
    Atomics.store(this.ints, base + field.state, ready);
  }

  private holds(index: number, bytes: Uint8Array): boolean {
    const start = index * maxNameBytes;
    if (this.ints[index * intsPerSlot + field.nameLength] !== bytes.length) return false;
    for (let offset = 0; offset < bytes.length; offset++) if (this.names[start + offset] !== bytes[offset]) return false;
    return true;
  }
}

/** 64-bit FNV-1a over the name's bytes, as two 32-bit halves. */
function hash64(bytes: Uint8Array): [number, number] {
  let hash = 0xcbf29ce484222325n;
  for (const byte of bytes) hash = BigInt.asUintN(64, (hash ^ BigInt(byte)) * 0x100000001b3n);
  return [Number(hash >> 32n) | 0, Number(hash & 0xffffffffn) | 0];
}
