// The leases of due work on a server alone, held in memory instead of committed
// (docs/architecture.md#leases-in-memory): a due step's lease is written with the collection's
// outcome, in one commit, and the resource's due entry meanwhile still says when it fell due.
// After a crash nothing of the lease is left, so the resource is due at once.
import type { StoredResource, VersionedResource } from '../store/resourceStore.js';
import type { TransitionCause } from '../store/transitionHistory.js';

/** A due step's result, not committed. */
export interface MemoryLease {
  /** The stored snapshot the step was computed from: the outcome's commit is conditional on it. */
  base: VersionedResource;
  /** What the step made of it: the same state, its due time the lease's end. */
  leased: StoredResource;
  /** The due step, recorded in the transition history by the outcome's commit. */
  cause: TransitionCause;
}

/**
 * Where the resource host puts a due step's lease: held in memory by a node alone (MemoryLeases),
 * committed like any step in a cluster, whose other nodes must see the work taken
 * (CommittedLeases; docs/design/cluster.md#due-work-exactly-once). The node's resource
 * replication chooses (docs/architecture.md#one-choice-of-mode).
 */
export interface DueLeases {
  /** Holds `lease` instead of its commit; false when it is to be committed. */
  hold(key: string, lease: MemoryLease): boolean;
  /** The lease held on `key` over `stored`, the resource's stored snapshot now. */
  over(key: string, stored: VersionedResource): MemoryLease | undefined;
  end(key: string): void;
  /** Whether `key` is leased and the lease has not ended at `now`. */
  holds(key: string, now: number): boolean;
}

/** The leases of a cluster node: every lease is committed, so none is ever held here. */
export class CommittedLeases implements DueLeases {
  hold(): boolean {
    return false;
  }

  over(): undefined {
    return undefined;
  }

  end(): void {}

  holds(): boolean {
    return false;
  }
}

export class MemoryLeases implements DueLeases {
  private readonly held = new Map<string, MemoryLease>();

  hold(key: string, lease: MemoryLease): boolean {
    this.held.set(key, lease);
    return true;
  }

  /**
   * The lease held on `key` over `stored`, the resource's stored snapshot now; a lease over an
   * older one is dropped (another writer changed the resource since: that change decides).
   */
  over(key: string, stored: VersionedResource): MemoryLease | undefined {
    const lease = this.held.get(key);
    if (lease && lease.base.version !== stored.version) {
      this.held.delete(key);
      return undefined;
    }
    return lease;
  }

  end(key: string): void {
    this.held.delete(key);
  }

  /** When the lease held on `key` ends (it may have ended already); undefined when none is held. */
  endsAt(key: string): number | undefined {
    return this.held.get(key)?.leased.context.nextDueAt;
  }

  /** Whether `key` is leased and the lease has not ended at `now`. */
  holds(key: string, now: number): boolean {
    const end = this.endsAt(key);
    return end !== undefined && end > now;
  }
}
