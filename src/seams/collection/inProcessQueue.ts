// The collection queue of one process (docs/architecture.md#the-seams): requests wait in memory in
// arrival order, each taken one leased for `leaseMs`.
import { Subject, type Observable } from 'rxjs';
import type { CollectionQueue, Lease } from './ports.js';

interface Waiting {
  key: string;
  /** Deliveries made so far. */
  delivered: number;
}

/**
 * A lease neither acknowledged nor released in time comes back first. The queue survives nothing:
 * after a crash the resources' persisted leases bring the work back through the due index.
 */
export class InProcessCollectionQueue implements CollectionQueue {
  /** Requests not yet taken, by key, in arrival order (a Map keeps insertion order). */
  private readonly waitingByKey = new Map<string, number>();
  /** Leases given back or expired: delivered again before any new request. */
  private readonly redeliveries: Waiting[] = [];
  /** Leases out, in the order they were taken, which with one lease length is expiry order. */
  private readonly leased = new Map<Lease, number>();
  /** Keys of the leases out: each is out once at most. */
  private readonly leasedKeys = new Set<string>();
  private readonly signal = new Subject<void>();
  readonly waiting: Observable<void> = this.signal.asObservable();

  constructor(
    private readonly leaseMs: number,
    private readonly now: () => number,
  ) {}

  /** Requests waiting to be taken, given-back ones included (for the metrics). */
  get depth(): number {
    return this.waitingByKey.size + this.redeliveries.length;
  }

  request(key: string): Promise<void> {
    if (!this.waitingByKey.has(key) && !this.leasedKeys.has(key)) {
      this.waitingByKey.set(key, 0);
      this.signal.next();
    }
    return Promise.resolve();
  }

  take(limit: number): Promise<Lease[]> {
    this.expireLeases();
    const taken: Lease[] = [];
    const expiresAt = this.now() + this.leaseMs;
    while (taken.length < limit && this.redeliveries.length > 0) {
      const { key, delivered } = this.redeliveries.shift()!;
      taken.push(this.lease(key, delivered, expiresAt));
    }
    for (const [key, delivered] of this.waitingByKey) {
      if (taken.length >= limit) break;
      this.waitingByKey.delete(key);
      taken.push(this.lease(key, delivered, expiresAt));
    }
    return Promise.resolve(taken);
  }

  ack(lease: Lease): Promise<void> {
    if (this.leased.delete(lease)) this.leasedKeys.delete(lease.key);
    return Promise.resolve();
  }

  release(lease: Lease): Promise<void> {
    // A lease that expired meanwhile was queued again already.
    if (this.leased.delete(lease)) {
      this.leasedKeys.delete(lease.key);
      this.redeliveries.push({ key: lease.key, delivered: lease.delivery });
      this.signal.next();
    }
    return Promise.resolve();
  }

  private lease(key: string, delivered: number, expiresAt: number): Lease {
    const lease: Lease = { key, delivery: delivered + 1 };
    this.leased.set(lease, expiresAt);
    this.leasedKeys.add(key);
    return lease;
  }

  private expireLeases(): void {
    const now = this.now();
    for (const [lease, expiresAt] of this.leased) {
      if (expiresAt > now) break;
      this.leased.delete(lease);
      this.leasedKeys.delete(lease.key);
      this.redeliveries.push({ key: lease.key, delivered: lease.delivery });
    }
  }
}
