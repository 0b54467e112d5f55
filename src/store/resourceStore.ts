// Resource snapshots, their pre-rendered views and the due index, written in one transaction so no reader sees
// a torn resource, and only if the snapshot is the one the change was computed from (docs/storage.md#conditional-commits).
import type { DueEventType } from '../../machines/resource.js';
import type { DueWork } from '../../streams/dueWork.js';
import { type HistoryPolicy, historyDefaults, limits } from '../config.js';
import { DatapointSeries } from './datapointSeries.js';
import { entryCount } from './entryCount.js';
import type { Databases } from './environment.js';
import { RecentMap } from './recentMap.js';
import type { ResourceView, StoredResource } from './records.js';
import { type Transition, type TransitionCause, TransitionHistory } from './transitionHistory.js';
import { ViewCache } from './viewCache.js';

export type { ResourceView, StoredResource } from './records.js';

/** A stored snapshot and the version a conditional commit of its successor must name. */
export interface VersionedResource {
  resource: StoredResource;
  version: number;
}

/** One change of a resource: what a commit writes. */
export interface ResourceChange {
  resource: StoredResource;
  view: ResourceView;
  event: DueEventType;
  /** What caused it, for the resource's transition history; absent in changes logged before it was kept. */
  cause?: TransitionCause | undefined;
  /**
   * The due step whose lease this change ends, when that lease was held in memory rather than
   * committed (a server alone, docs/architecture.md#leases-in-memory): recorded in the transition
   * history before `cause`, as the version before this change's. Never set on a cluster's log.
   */
  leasedBy?: TransitionCause | undefined;
}

/** How a store's commits are decided: by its own LMDB environment, or by the log every node of a cluster shares (src/store/resourceReplica.ts). */
export interface CommitStrategy {
  commit(key: string, base: VersionedResource | undefined, change: ResourceChange): Promise<boolean>;
}

/** What a commit strategy may do to the store it commits for. */
export interface StoreWrites {
  readonly dbs: Databases;
  /** The writes of one change, inside the caller's write transaction. */
  write(key: string, change: ResourceChange, over: ChangeWrite): void;
  /** The change is written as `version` and durable: the store remembers it and tells its listeners. */
  committed(key: string, version: number, change: ResourceChange): void;
  /** Another writer's change is newer than what the store remembers of `key`: read it afresh. */
  forget(key: string): void;
  count(): number;
}

/**
 * The node's resources in its LMDB environment: reads for searches and the resource host, and
 * commits, decided by this environment alone unless a cluster's replica took them over
 * (`commitThrough`, src/store/resourceReplica.ts).
 */
export class ResourceStore {
  /**
   * Views recently read or written, so that a search of warm resources decodes nothing. A view
   * enters here only once its commit won and is durable, so a search never shows what a crash
   * could take back; a lost commit drops what this store remembered of its resource. Another
   * writer's commits are not seen here until then (docs/storage.md#conditional-commits).
   */
  private readonly recentViews = new ViewCache();
  /**
   * Snapshots recently committed, on the same terms as views: a collection reads its
   * resource's snapshot twice (lease, then result), and the second read is then a map hit
   * instead of a decode. Snapshots are never mutated: every machine step builds new ones.
   */
  private readonly recentSnapshots = new RecentMap<string, VersionedResource>(2 * limits.maxResourcesInWork);
  private readonly transitions: TransitionHistory;
  /** Every resource's datapoints over time, recorded by its commits (docs/history.md#what-is-recorded). */
  readonly series: DatapointSeries;
  private readonly commitListeners: Array<(key: string, view: ResourceView) => void> = [];
  private readonly writes: StoreWrites;
  private commits: CommitStrategy;
  private commitsTaken = false;

  constructor(
    private readonly dbs: Databases,
    history: HistoryPolicy = historyDefaults,
  ) {
    this.series = new DatapointSeries(dbs, history);
    this.transitions = new TransitionHistory(dbs);
    this.writes = {
      dbs,
      write: (key, change, over) => this.write(key, change, over),
      committed: (key, version, change) => this.remember(key, version, change),
      forget: (key) => this.forget(key),
      count: () => this.count(),
    };
    this.commits = localCommits(this.writes);
  }

  /**
   * Hands this store's commits to the strategy `make` builds over its writes (a cluster node's
   * replica of the resource log, docs/design/cluster.md#resource-replication), once, before any commit.
   */
  commitThrough<C extends CommitStrategy>(make: (writes: StoreWrites) => C): C {
    if (this.commitsTaken) throw new Error('the resource store already commits through another strategy');
    this.commitsTaken = true;
    const commits = make(this.writes);
    this.commits = commits;
    return commits;
  }

  /** The resource's last transitions, oldest first (docs/storage.md#transition-history). */
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
    return stored && this.recentViews.fromDisk(key, stored);
  }

  /**
   * Writes the change's snapshot, view, due entry, the transition its `cause` made and the
   * datapoints it collected (docs/history.md#what-is-recorded) in one transaction only if the
   * stored version is still the one of `base`, the snapshot it was computed from (undefined: only
   * if the resource does not exist yet). Resolves false, having written nothing, when another
   * writer got there first.
   */
  commit(key: string, base: VersionedResource | undefined, change: ResourceChange): Promise<boolean> {
    return this.commits.commit(key, base, change);
  }

  /**
   * `listener` hears each view once it is durably written, by a commit that won or a change from
   * the log, before the resource's next step can begin (the push feed, the edge threads).
   */
  onCommitted(listener: (key: string, view: ResourceView) => void): void {
    this.commitListeners.push(listener);
  }

  /**
   * The writes of one resource change over `base`, unconditionally, for a caller that runs them in
   * its own transaction (the benchmark seeder, before any server runs on the directory). Without a
   * `cause` no transition is recorded: the seeder's resources never made one.
   */
  stage(key: string, base: VersionedResource | undefined, change: ResourceChange): void {
    this.write(key, change, { version: nextVersion(base, change), previous: base?.resource, consecutive: true });
  }

  /** Due work in due order, oldest first, at most `limit` entries; only those after `after` when given. */
  dueBefore(now: number, limit: number, after?: DueWork): DueWork[] {
    const entries: DueWork[] = [];
    const start = after ? [after.dueAt, after.key] : [0];
    // The range starts at `after` itself when it is still there: one more is read, and it is passed.
    for (const { key, value } of this.dbs.due.getRange({ start, end: [now + 1], limit: after ? limit + 1 : limit })) {
      const [dueAt, resourceKey] = key;
      if (after && dueAt === after.dueAt && resourceKey === after.key) continue;
      if (entries.length === limit) break;
      entries.push({ key: resourceKey, dueAt, event: value });
    }
    return entries;
  }

  count(): number {
    // getStats reads the B-tree header; getCount walks every entry and maps the whole file.
    // Views, not snapshots: the snapshots' database also holds their shared record structures.
    return entryCount(this.dbs.views);
  }

  private write(key: string, change: ResourceChange, over: ChangeWrite): void {
    const { resources, views, due } = this.dbs;
    const { resource: next, view, event, cause, leasedBy } = change;
    const { version, previous, consecutive } = over;
    if (previous && previous.context.nextDueAt !== next.context.nextDueAt) {
      due.remove([previous.context.nextDueAt, key]);
    }
    due.put([next.context.nextDueAt, key], event);
    resources.put(key, next, version);
    views.put(key, [view.entryEnd, view.refreshAfter]);
    this.series.record(key, previous?.context, next.context);
    // A due step only moves the due time (machines/resource.ts): its lease keeps the stored state.
    const before = previous?.value ?? null;
    if (leasedBy && before) this.transitions.record(key, version - 1, { ...leasedBy, from: before, to: before }, consecutive);
    if (cause) this.transitions.record(key, version, { ...cause, from: before, to: next.value }, consecutive);
  }

  private remember(key: string, version: number, { resource, view }: ResourceChange): void {
    this.recentViews.set(key, view);
    this.recentSnapshots.set(key, { resource, version });
    for (const listener of this.commitListeners) listener(key, view);
  }

  private forget(key: string): void {
    this.recentViews.delete(key);
    this.recentSnapshots.delete(key);
  }
}

/**
 * Commits decided by this LMDB environment alone: LMDB checks the version inside the write
 * transaction, which every process on the directory takes in turn (docs/storage.md#conditional-commits).
 */
function localCommits(writes: StoreWrites): CommitStrategy {
  const { resources } = writes.dbs;
  return {
    async commit(key, base, change) {
      const version = nextVersion(base, change);
      const stage = () => writes.write(key, change, { version, previous: base?.resource, consecutive: true });
      const won = await (base === undefined ? resources.ifNoExists(key, stage) : resources.ifVersion(key, base.version, stage));
      if (won) writes.committed(key, version, change);
      else writes.forget(key);
      return won;
    },
  };
}

/** Where a change is written: as which version of the resource, over which snapshot. */
export interface ChangeWrite {
  version: number;
  previous: StoredResource | undefined;
  /** Whether `version` follows the previous one by one, for the transition history (a replica's revisions do not). */
  consecutive: boolean;
}

/**
 * Versions count a resource's transitions: 1 for its creation, one more for every change, and one
 * more again for the lease a change ends when that lease was held in memory (`leasedBy`).
 */
function nextVersion(base: VersionedResource | undefined, change: ResourceChange): number {
  return (base?.version ?? 0) + (change.leasedBy ? 2 : 1);
}
