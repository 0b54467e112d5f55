// Stream tickets (docs/push.md#tickets): a browser cannot set Authorization on a WebSocket, so an
// authenticated POST hands out a ticket that stands for the token, briefly and once.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { limits } from '../config.js';

/** What every thread of one server shares for tickets. */
export interface TicketState {
  /** Int32 [next serial, slot 0, slot 1, ...]: a slot holds its ticket's serial until redeemed. */
  slots: SharedArrayBuffer;
  key: Uint8Array;
}

export function createTicketState(slots: number = limits.push.ticketSlots): TicketState {
  return { slots: new SharedArrayBuffer((slots + 1) * Int32Array.BYTES_PER_ELEMENT), key: new Uint8Array(randomBytes(32)) };
}

const ivBytes = 12;
const tagBytes = 16;
const digestBytes = 32;
/** serial (4) + expiry in ms (8) + token digest (32) */
const plainBytes = 4 + 8 + digestBytes;
/** Serials run 1 .. 2^31 - 1: 0 marks a free or redeemed slot. */
const maxSerial = 0x7fffffff;

/**
 * A ticket is the token's digest, a serial and an expiry, sealed with AES-256-GCM under a key made
 * at each start: nothing is stored per ticket but one Int32 slot in a buffer every thread shares,
 * which the first redemption clears, so a ticket one edge issued is redeemed by any edge.
 */
export class StreamTickets {
  private readonly slots: Int32Array;
  private readonly key: Buffer;

  constructor(
    state: TicketState,
    private readonly ttlMs: number = limits.push.ticketTtlMs,
  ) {
    this.slots = new Int32Array(state.slots);
    this.key = Buffer.from(state.key);
  }

  /** A ticket for the token whose digest (hex) is `digest`, redeemable once until `expiresAt`. */
  issue(digest: string, now: number): { ticket: string; expiresAt: number } {
    const serial = (Atomics.add(this.slots, 0, 1) % maxSerial) + 1;
    Atomics.store(this.slots, this.slotOf(serial), serial);
    const expiresAt = now + this.ttlMs;
    const plain = Buffer.alloc(plainBytes);
    plain.writeUInt32BE(serial, 0);
    plain.writeDoubleBE(expiresAt, 4);
    plain.write(digest, 12, 'hex');
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return { ticket: sealed.toString('base64url'), expiresAt };
  }

  /**
   * The token digest a ticket stands for and its serial, or undefined when it is not one of this
   * server's tickets, has expired, or was spent before (or its slot was taken by a newer ticket).
   * Reading spends nothing: an upgrade spends the ticket only once it will open (docs/push.md#tickets).
   */
  read(ticket: string, now: number): { digest: string; serial: number } | undefined {
    const sealed = Buffer.from(ticket, 'base64url');
    if (sealed.length !== ivBytes + plainBytes + tagBytes) return undefined;
    const plain = this.open(sealed);
    if (!plain) return undefined;
    const serial = plain.readUInt32BE(0);
    if (plain.readDoubleBE(4) <= now) return undefined;
    if (Atomics.load(this.slots, this.slotOf(serial)) !== serial) return undefined;
    return { digest: plain.toString('hex', 12), serial };
  }

  /** Spends a ticket read before; false when another upgrade spent it first (or a newer ticket took its slot). */
  spend(serial: number): boolean {
    return Atomics.compareExchange(this.slots, this.slotOf(serial), serial, 0) === serial;
  }

  private open(sealed: Buffer): Buffer | undefined {
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, ivBytes));
      decipher.setAuthTag(sealed.subarray(sealed.length - tagBytes));
      return Buffer.concat([decipher.update(sealed.subarray(ivBytes, sealed.length - tagBytes)), decipher.final()]);
    } catch {
      // A forged or damaged ticket fails its authentication tag.
      return undefined;
    }
  }

  private slotOf(serial: number): number {
    return 1 + (serial % (this.slots.length - 1));
  }
}
