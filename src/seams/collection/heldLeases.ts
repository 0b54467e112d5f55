// The leases a node holds from the cluster's collection queue and when each may still be answered:
// extended while the node lives, back within one ack wait when it dies
// (docs/design/cluster.md#leases).
import type { Lease } from './ports.js';

export interface LeaseTiming {
  /** The longest a live holder keeps a lease (the collection queue's lease). */
  leaseMs: number;
  /** The consumer's ack wait: NATS delivers again this long after the delivery or the last in-progress acknowledgement. */
  ackWaitMs: number;
  /** A holder treats its lease as expired this much earlier than NATS does. */
  marginMs: number;
}

interface Held {
  ackSubject: string;
  /** When the pull that delivered it was sent (NATS starts its ack wait later). */
  takenAt: number;
  /** When the last in-progress acknowledgement was sent (or the pull). */
  extendedAt: number;
  /** After this the lease may have been delivered to someone else. */
  expiresAt: number;
  /** The connection's life it was taken in: a lease from before a reconnect is void. */
  life: number;
}

export class HeldLeases {
  private readonly held = new Map<Lease, Held>();

  constructor(private readonly timing: LeaseTiming) {}

  get size(): number {
    return this.held.size;
  }

  /** Records a lease delivered by a pull sent at `takenAt` in the connection's life `life`. */
  hold(lease: Lease, ackSubject: string, takenAt: number, life: number): void {
    const { leaseMs, ackWaitMs, marginMs } = this.timing;
    this.held.set(lease, { ackSubject, takenAt, extendedAt: takenAt, expiresAt: takenAt + Math.min(ackWaitMs, leaseMs) - marginMs, life });
  }

  /**
   * The subject to answer `lease` on, or undefined when it may not be answered any more (expired,
   * taken before a reconnect, or not held): such a lease is forgotten.
   */
  answerable(lease: Lease, now: number, life: number): string | undefined {
    const held = this.held.get(lease);
    if (held && now < held.expiresAt && held.life === life) return held.ackSubject;
    this.held.delete(lease);
    return undefined;
  }

  forget(lease: Lease): void {
    this.held.delete(lease);
  }

  /**
   * The subjects to send an in-progress acknowledgement on now: each lease last extended a third
   * of the ack wait ago or more, as long as the extension keeps it within the lease length. Their
   * expiry moves to a full ack wait from `now` (the acknowledgement reaches NATS after `now`).
   * Leases that expired or belong to an earlier connection life are forgotten.
   */
  extend(now: number, life: number): string[] {
    const { leaseMs, ackWaitMs, marginMs } = this.timing;
    const subjects: string[] = [];
    for (const [lease, held] of this.held) {
      if (now >= held.expiresAt || held.life !== life) {
        this.held.delete(lease);
        continue;
      }
      if (now - held.extendedAt < ackWaitMs / 3 || now + ackWaitMs > held.takenAt + leaseMs) continue;
      held.extendedAt = now;
      held.expiresAt = now + ackWaitMs - marginMs;
      subjects.push(held.ackSubject);
    }
    return subjects;
  }
}
