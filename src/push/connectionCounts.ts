// Open stream connections per account, counted for the whole server (docs/push.md#limits):
// one Int32 per slot of the shared account table (src/access/accountTable.ts), so every edge
// thread counts against the same number.
import { type AccountTable, intsPerSlot } from '../access/accountTable.js';

export function createConnectionCountsBuffer(table: AccountTable): SharedArrayBuffer {
  return new SharedArrayBuffer((table.ints.length / intsPerSlot) * Int32Array.BYTES_PER_ELEMENT);
}

export class ConnectionCounts {
  private readonly counts: Int32Array;

  constructor(
    private readonly table: AccountTable,
    buffer: SharedArrayBuffer,
    private readonly limit: number,
  ) {
    this.counts = new Int32Array(buffer);
  }

  /** The account's slot, now counting one more connection; undefined when it is at its limit or has no slot. */
  open(account: string): number | undefined {
    const base = this.table.slotOf(account);
    if (base < 0) return undefined;
    const slot = base / intsPerSlot;
    for (let seen = Atomics.load(this.counts, slot); seen < this.limit; seen = Atomics.load(this.counts, slot)) {
      if (Atomics.compareExchange(this.counts, slot, seen, seen + 1) === seen) return slot;
    }
    return undefined;
  }

  close(slot: number): void {
    Atomics.sub(this.counts, slot, 1);
  }
}
