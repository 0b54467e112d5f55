// Persistence of resource snapshots, their pre-rendered views and the due index, always
// written together in one transaction so that no reader ever sees a torn resource, and only
// if the snapshot is still the one the change was computed from (docs/storage.md,
// "Conditional commits").
import type { ResourceContext, DueEventType } from '../../machines/resource.js';
import type { ResourceStatus } from '../model.js';
import { limits } from '../config.js';
import { entryCount } from './entryCount.js';
import type { Databases } from './environment.js';
import { Doorkeeper } from './doorkeeper.js';
import { RecentMap } from './recentMap.js';
import { type Transition, type TransitionCause, TransitionHistory } from './transitionHistory.js';

export interface StoredResource {
  value: ResourceStatus;
  context: ResourceContext;
}

/** What a search needs of a resource, and nothing more. */
export interface ResourceView {
  /** The result entry after its echoed platform/type/identifier: `,"status":...}` */
  tail: string;
  /** For available resources: when a search should ask for an eager refresh; otherwise 0. */
  refreshAfter: number;
}

/** A stored snapshot and the version a conditional commit of its successor must name. */
export interface VersionedResource {
  resource: StoredResource;
  version: number;
}

export interface DueEntry {
  key: string;
  dueAt: number;
  event: DueEventType;
}

export class ResourceStore {
  /**
   * Views recently read or written, so that a search of warm resources decodes nothing. A view
   * enters here only once its commit won and is durable, so a search never shows what a crash
   * could take back; a lost commit drops what this store remembered of its resource. Another
   * writer's commits are not seen here until then (docs/storage.md, "Conditional commits").
   */
  private readonly recentViews: RecentMap<string, ResourceView>;
  /**
   * A view read from disk is kept only on its second recent read: random searches over a
   * million resources read each view about once, and caching all of them cost ~20% of a cold
   * search's requests/s with no hit to show for it.
   */
  private readonly viewDoorkeeper: Doorkeeper;
  /**
   * Snapshots recently committed, on the same terms as views: a collection reads its
   * resource's snapshot twice (lease, then result), and the second read is then a map hit
   * instead of a decode. Snapshots are never mutated: every machine step builds new ones.
   */
  private readonly recentSnapshots = new RecentMap<string, VersionedResource>(2 * limits.maxResourcesInWork);
  private readonly transitions: TransitionHistory;

  constructor(private readonly dbs: Databases) {
    this.recentViews = new RecentMap(limits.viewCacheGeneration);
    this.viewDoorkeeper = new Doorkeeper(2 * limits.viewCacheGeneration);
    this.transitions = new TransitionHistory(dbs);
  }

  /** The resource's last transitions, oldest first (docs/storage.md, "Transition history"). */
  history(key: string): Transition[] {
    return this.transitions.history(key);
  }

  snapshot(key: string): StoredResource | undefined {
    return this.snapshotEntry(key)?.resource;
  }

  /** The stored snapshot with the version a conditional commit must name. */
  snapshotEntry(key: string): VersionedResource | undefined {
    const recent = this.recentSnapshots.get(key);
    if (recent) return recent;
    const stored = this.dbs.resources.getEntry(key);
    return stored && { resource: stored.value, version: stored.version ?? 0 };
  }

  view(key: string): ResourceView | undefined {
    const recent = this.recentViews.get(key);
    if (recent) return recent;
    const stored = this.dbs.views.get(key);
    if (!stored) return undefined;
    const view = { tail: stored[0], refreshAfter: stored[1] };
    if (this.viewDoorkeeper.admit(key)) this.recentViews.set(key, view);
    return view;
  }

  /**
   * Writes snapshot, view, due entry and the transition `cause` made in one transaction only if
   * the stored version is still `expectedVersion` (undefined: only if the resource does not
   * exist yet). Resolves false, having written nothing, when another writer got there first.
   * LMDB checks the version inside the write transaction, which every process on the directory
   * takes in turn.
   */
  async commit(
    key: string,
    expectedVersion: number | undefined,
    previous: StoredResource | undefined,
    next: StoredResource,
    view: ResourceView,
    event: DueEventType,
    cause: TransitionCause,
  ): Promise<boolean> {
    const writes = () => this.stage(key, expectedVersion, previous, next, view, event, cause);
    const { resources } = this.dbs;
    const won = await (expectedVersion === undefined
      ? resources.ifNoExists(key, writes)
      : resources.ifVersion(key, expectedVersion, writes));
    if (won) {
      this.recentViews.set(key, view);
      this.recentSnapshots.set(key, { resource: next, version: nextVersion(expectedVersion) });
    } else {
      // What this store remembers of the resource is older than the winner's: read it afresh.
      this.recentViews.delete(key);
      this.recentSnapshots.delete(key);
    }
    return won;
  }

  /**
   * The writes of one resource change, unconditionally, for a caller that runs them in its own
   * transaction (the benchmark seeder, before any server runs on the directory). Without a
   * `cause` no transition is recorded: the seeder's resources never made one.
   */
  stage(
    key: string,
    expectedVersion: number | undefined,
    previous: StoredResource | undefined,
    next: StoredResource,
    view: ResourceView,
    event: DueEventType,
    cause?: TransitionCause,
  ): void {
    const { resources, views, due } = this.dbs;
    if (previous && previous.context.nextDueAt !== next.context.nextDueAt) {
      due.remove([previous.context.nextDueAt, key]);
    }
    due.put([next.context.nextDueAt, key], event);
    const version = nextVersion(expectedVersion);
    resources.put(key, next, version);
    views.put(key, [view.tail, view.refreshAfter]);
    if (cause) this.transitions.record(key, version, { ...cause, from: previous?.value ?? null, to: next.value });
  }

  /** Due work in due order, oldest first, at most `limit` entries. */
  dueBefore(now: number, limit: number): DueEntry[] {
    const entries: DueEntry[] = [];
    for (const { key, value } of this.dbs.due.getRange({ start: [0], end: [now + 1], limit })) {
      const [dueAt, resourceKey] = key;
      entries.push({ key: resourceKey, dueAt, event: value });
    }
    return entries;
  }

  count(): number {
    // getStats reads the B-tree header; getCount walks every entry and maps the whole file.
    // Views, not snapshots: the snapshots' database also holds their shared record structures.
    return entryCount(this.dbs.views);
  }
}

/** Versions count a resource's commits: 1 for its creation, one more for every change. */
function nextVersion(expectedVersion: number | undefined): number {
  return (expectedVersion ?? 0) + 1;
}
