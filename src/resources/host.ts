// Resources as virtual actors (docs/dependencies.md#xstate): an event loads the snapshot from LMDB, a pure
// step computes the next one (machines/step.ts), it is committed only if the snapshot is still the one read
// (docs/architecture.md#conditional-commits); on a server alone a due step's lease is held in memory until
// the outcome's commit (docs/architecture.md#leases-in-memory).
import { eventForOutcome } from '../../machines/outcomeEvent.js';
import { dueEventFor, type ResourceEvent, type ResourceMachine } from '../../machines/resource.js';
import { stepperFor, type ResourceSnapshot, type ResourceStepper } from '../../machines/step.js';
import { limits } from '../config.js';
import type { CollectionOutcome } from '../model.js';
import type { ResourceStore, StoredResource, VersionedResource } from '../store/resourceStore.js';
import type { TransitionCause } from '../store/transitionHistory.js';
import type { ResourceDemand } from './demand.js';
import type { DueLeases, MemoryLease } from './memoryLeases.js';
import { renderView } from './view.js';
import type { WorkRegistry } from './workRegistry.js';

export interface ResourceHostOptions {
  store: ResourceStore;
  machine: ResourceMachine;
  work: WorkRegistry;
  /** Effect of the machine's `requestCollection` action. */
  requestCollection(key: string): void;
  now(): number;
  /** The jitter of retry delays, in [0, 1). */
  random(): number;
  onError(key: string, error: unknown): void;
  /**
   * Where due steps' leases go: held in memory instead of committed (a server alone), or committed,
   * as a cluster's other nodes must see them (docs/design/cluster.md#due-work-exactly-once).
   */
  leases: DueLeases;
}

const dueEvents: ReadonlySet<ResourceEvent['type']> = new Set(Object.values(dueEventFor));

export class ResourceHost implements ResourceDemand {
  private readonly step: ResourceStepper;

  constructor(private readonly options: ResourceHostOptions) {
    this.step = stepperFor(options.machine);
  }

  /**
   * A search saw these resources unknown or due an eager refresh. An unknown one starts being
   * tracked (pending, collection asked for); a known one is sent REFRESH_DUE, which the machine
   * ignores unless it is due. A resource already in work is left to that work.
   */
  wanted(keys: readonly string[], at: number): void {
    const { work, leases } = this.options;
    for (const key of keys) {
      // A leased resource is being collected: its view does not say so until the outcome's commit.
      if (work.has(key) || leases.holds(key, at)) continue;
      work.step(key, () => this.createOrRefresh(key, at)).catch((error: unknown) => this.options.onError(key, error));
    }
  }

  /** Applies a due event (or any other); failures go to onError. Due work starts collections: it waits for work that finishes them. */
  send(key: string, event: ResourceEvent): Promise<void> {
    return this.options.work
      .step(key, () => this.apply(key, event), 'starting')
      .catch((error: unknown) => this.options.onError(key, error));
  }

  /** OutcomeSink: resolves once the outcome is persisted, rejects if it could not be. */
  deliver(key: string, outcome: CollectionOutcome): Promise<void> {
    return this.options.work.step(key, () => this.apply(key, eventForOutcome(outcome, this.options.now(), this.options.random())));
  }

  /**
   * OutcomeSink: the collection of `key` was given up unanswered (a clean stop). Its lease is
   * ended now, so that the due index offers it again at once, here or after a restart
   * (docs/architecture.md#stopping): one held in memory is dropped, a persisted one committed as
   * ended. Only called while the collection asked for is out, so the resource's stored due time
   * is then that lease, not a backoff.
   */
  abandoned(key: string): Promise<void> {
    return this.options.work.step(key, async () => {
      this.options.leases.end(key);
      const stored = this.options.store.snapshotEntry(key);
      const at = this.options.now();
      if (!stored || stored.resource.context.nextDueAt <= at) return;
      const { value, context } = stored.resource;
      // Lost to another writer: the stored due time is no longer this collection's lease.
      await this.commit(key, stored, { value, context: { ...context, nextDueAt: at } }, { event: 'LEASE_ENDED', at });
    });
  }

  /** Resolves when every step accepted so far is persisted and acted on. */
  settled(): Promise<void> {
    return this.options.work.drain();
  }

  private async createOrRefresh(key: string, at: number): Promise<void> {
    if (this.options.store.snapshotEntry(key)) return this.apply(key, { type: 'REFRESH_DUE', at });
    const [snapshot, actions] = this.step.initial(at);
    // Lost: another writer created the resource, and asked for its collection itself.
    if (await this.commit(key, undefined, storedFrom(snapshot), { event: 'CREATED', at })) this.act(key, actions);
  }

  /**
   * Steps the machine from the stored snapshot (or the lease held over it) and commits the result
   * if that snapshot is still the stored one; a due step's lease is held instead, where leases are
   * held in memory. When another writer committed first, the step is computed again from what it
   * wrote, a bounded number of times.
   */
  private async apply(key: string, event: ResourceEvent): Promise<void> {
    const { store, leases } = this.options;
    for (let attempt = 1; ; attempt++) {
      const stored = store.snapshotEntry(key);
      if (!stored) {
        leases.end(key);
        return;
      }
      const lease = leases.over(key, stored);
      const snapshot = this.step.resolve(lease ? lease.leased : stored.resource);
      const [next, actions] = this.step.next(snapshot, event);
      const cause = { event: event.type, at: event.at };
      if (next !== snapshot && dueEvents.has(event.type) && leases.hold(key, { base: stored, leased: storedFrom(next), cause })) {
        this.act(key, actions);
        return;
      }
      if (next === snapshot || (await this.commit(key, stored, storedFrom(next), cause, lease))) {
        this.act(key, actions);
        return;
      }
      if (attempt >= limits.commitAttempts) {
        throw new Error(`${event.type} for ${key} not committed: another writer changed it ${attempt} times in a row`);
      }
    }
  }

  /** Commits `next` over `stored`, and with it the lease held over `stored`, which it ends. */
  private async commit(
    key: string,
    stored: VersionedResource | undefined,
    next: StoredResource,
    cause: TransitionCause,
    lease?: MemoryLease,
  ): Promise<boolean> {
    const view = renderView(next.value, next.context);
    const won = await this.options.store.commit(key, stored, {
      resource: next,
      view,
      event: dueEventFor[next.value],
      cause,
      leasedBy: lease?.cause,
    });
    if (won && lease) this.options.leases.end(key);
    return won;
  }

  private act(key: string, actions: ReadonlyArray<{ type: string }>): void {
    for (const action of actions) {
      if (action.type === 'requestCollection') this.options.requestCollection(key);
    }
  }
}

function storedFrom(snapshot: ResourceSnapshot): StoredResource {
  return { value: snapshot.value as StoredResource['value'], context: snapshot.context };
}
