// Resources are virtual actors (issue 2): no live actor or timer per resource. An event
// loads the snapshot from LMDB, a pure step of the machine computes the next one
// (machines/step.ts), the result is persisted, and only then are the machine's effects run.
import { dueEventFor, type ResourceEvent, type ResourceMachine } from '../../machines/resource.js';
import { stepperFor, type ResourceSnapshot, type ResourceStepper } from '../../machines/step.js';
import type { ResourceStore, ResourceView, StoredResource, VersionedResource } from '../store/resourceStore.js';
import { KeyedQueue } from './keyedQueue.js';
import { pendingView, renderView } from './view.js';

export interface ResourceHostOptions {
  store: ResourceStore;
  machine: ResourceMachine;
  /** Effect of the machine's `requestCollection` action. */
  requestCollection(key: string): void;
  now(): number;
  onError(key: string, error: unknown): void;
  /** How many pieces of resource work may start this turn (WorkPace); all at once when absent. */
  workPerTurn?(): number;
}

export class ResourceHost {
  private readonly creating = new Set<string>();
  private readonly queue: KeyedQueue;
  private readonly step: ResourceStepper;

  constructor(private readonly options: ResourceHostOptions) {
    this.queue = new KeyedQueue(options.onError, options.workPerTurn ?? (() => Number.POSITIVE_INFINITY));
    this.step = stepperFor(options.machine);
  }

  /**
   * The view a search answers with. Never waits: a resource new to the service answers
   * pending and starts being tracked (decisions 20); a stale-by-age one asks for a refresh (21).
   */
  viewFor(key: string, now: number): ResourceView {
    const view = this.options.store.view(key);
    if (view) {
      if (view.refreshAfter !== 0 && now >= view.refreshAfter) void this.send(key, { type: 'REFRESH_DUE', at: now });
      return view;
    }
    if (!this.creating.has(key)) this.create(key, now);
    return pendingView;
  }

  send(key: string, event: ResourceEvent): Promise<void> {
    return this.queue.run(key, () => this.apply(key, event));
  }

  /** Resources with events accepted but not yet persisted and acted on. */
  get busy(): number {
    return this.queue.size;
  }

  /** Resolves when every event accepted so far is persisted and acted on. */
  settled(): Promise<void> {
    return this.queue.drain();
  }

  private create(key: string, now: number): void {
    this.creating.add(key);
    void this.queue.run(key, async () => {
      try {
        // A concurrent create on another path may have won; the stored snapshot is the truth.
        if (this.options.store.snapshot(key)) return;
        const [snapshot, actions] = this.step.initial(now);
        await this.persist(key, undefined, snapshot);
        this.act(key, actions);
      } finally {
        this.creating.delete(key);
      }
    });
  }

  private async apply(key: string, event: ResourceEvent): Promise<void> {
    const stored = this.options.store.snapshotEntry(key);
    if (!stored) return;
    const snapshot = this.options.machine.resolveState(stored.resource);
    const [next, actions] = this.step.next(snapshot, event);
    if (next !== snapshot) await this.persist(key, stored, next);
    this.act(key, actions);
  }

  private persist(key: string, stored: VersionedResource | undefined, snapshot: ResourceSnapshot) {
    const status = snapshot.value as StoredResource['value'];
    const next: StoredResource = { value: status, context: snapshot.context };
    return this.options.store.commit(key, stored?.version, stored?.resource, next, renderView(status, snapshot.context), dueEventFor[status]);
  }

  private act(key: string, actions: ReadonlyArray<{ type: string }>): void {
    for (const action of actions) {
      if (action.type === 'requestCollection') this.options.requestCollection(key);
    }
  }
}
