// Persistence of resource snapshots, their pre-rendered views and the due index, always
// written together in one transaction so that no reader ever sees a torn resource, and only
// if the snapshot is still the one the change was computed from (docs/storage.md,
// "Conditional commits"). In a cluster the condition is decided by a log every node shares,
// and this store is the node's replica of it (docs/design/cluster-mechanics.md#resource-replication).
import type { DueEventType } from '../../machines/resource.js';
import { type HistoryPolicy, historyDefaults, limits } from '../config.js';
import { DatapointSeries } from './datapointSeries.js';
import { DataDirectoryError } from './dataDirectoryError.js';
import { entryCount } from './entryCount.js';
import type { Databases } from './environment.js';
import { Doorkeeper } from './doorkeeper.js';
import { RecentMap } from './recentMap.js';
import type { StoredResource } from './records.js';
import { type Transition, type TransitionCause, TransitionHistory } from './transitionHistory.js';

export type { StoredResource } from './records.js';

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

/** One change of a resource: what a commit writes. */
export interface ResourceChange {
  resource: StoredResource;
  view: ResourceView;
  event: DueEventType;
  /** What caused it, for the resource's transition history; absent in changes logged before it was kept. */
  cause?: TransitionCause | undefined;
}

/** A change as a shared log holds it: its revision orders it among all the log's changes. */
export interface LoggedChange extends ResourceChange {
  key: string;
  /** The log's sequence number of this change; a resource's version in a replica is its revision. */
  revision: number;
}

export type AppendResult = { appended: true; revision: number } | { appended: false; current: LoggedChange | undefined };

/**
 * The part of a cluster's resource log that decides commits (docs/design/cluster-mechanics.md#one-writer-per-resource): a change is appended only if the key's last revision is still the one it was
 * computed from (0: the key has none). A refusal carries the change that won.
 */
export interface ResourceCommitLog {
  append(key: string, expectedRevision: number, change: ResourceChange): Promise<AppendResult>;
}

export class ResourceStore {
  /**
   * Views recently read or written, so that a search of warm resources decodes nothing. A view
   * enters here only once its commit won and is durable, so a search never shows what a crash
   * could take back; a lost commit drops what this store remembered of its resource. Another
   * writer's commits are not seen here until then (docs/storage.md#conditional-commits).
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
  /** Every resource's datapoints over time, recorded by its commits (docs/history.md#what-is-recorded). */
  readonly series: DatapointSeries;

  /**
   * `log`: commits are decided by a cluster's shared log, and this store is the node's replica of
   * it; without one, by this LMDB environment alone.
   */
  constructor(
    private readonly dbs: Databases,
    private readonly log?: ResourceCommitLog,
    history: HistoryPolicy = historyDefaults,
  ) {
    this.series = new DatapointSeries(dbs, history);
    this.recentViews = new RecentMap(limits.viewCacheGeneration);
    this.viewDoorkeeper = new Doorkeeper(2 * limits.viewCacheGeneration);
    this.transitions = new TransitionHistory(dbs);
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
    if (!stored) return undefined;
    const view = { tail: stored[0], refreshAfter: stored[1] };
    if (this.viewDoorkeeper.admit(key)) this.recentViews.set(key, view);
    return view;
  }

  /**
   * Writes the change's snapshot, view, due entry, the transition its `cause` made and the
   * datapoints it collected (docs/history.md#what-is-recorded) in one transaction only if the
   * stored version is still the one of `base`, the snapshot it was computed from (undefined: only
   * if the resource does not exist yet). Resolves false, having written nothing, when another
   * writer got there first. LMDB checks the version inside the write transaction, which every
   * process on the directory takes in turn.
   */
  async commit(key: string, base: VersionedResource | undefined, change: ResourceChange): Promise<boolean> {
    if (this.log) return this.commitThroughLog(this.log, key, base?.version, change);
    const writes = () => this.stage(key, base, change);
    const { resources } = this.dbs;
    const won = await (base === undefined ? resources.ifNoExists(key, writes) : resources.ifVersion(key, base.version, writes));
    if (won) this.remember(key, nextVersion(base), change.resource, change.view);
    else this.forget(key);
    return won;
  }

  /**
   * Writes a change from the cluster's log into this replica, in one transaction, if it is newer
   * than the resource's stored revision; `advanceCursor` also records its revision as the last
   * one applied in log order, in the same transaction, so that a restart resumes after it
   * (docs/design/cluster-mechanics.md#resource-replication). Resolves whether the change was written.
   */
  async applyLogged(change: LoggedChange, advanceCursor: boolean): Promise<boolean> {
    const { root, resources, meta } = this.dbs;
    const { key, revision, resource, view } = change;
    const written = await root.transaction(() => {
      const stored = resources.getEntry(key);
      const newer = !stored || (stored.version ?? 0) < revision;
      // A resource's revisions in the log are not consecutive: its history is bounded by reading it.
      if (newer) this.write(key, change, { version: revision, previous: stored?.value, consecutive: false });
      if (advanceCursor) void meta.put('resourceLogRevision', revision);
      // A commit through the log marks the directory as a replica, even before its follower runs.
      else if (meta.get('resourceLogRevision') === undefined) void meta.put('resourceLogRevision', 0);
      return newer;
    });
    if (written) this.remember(key, revision, resource, view);
    return written;
  }

  /** The revision of the last change applied in log order (0: none yet, or not a cluster node). */
  appliedRevision(): number {
    return this.dbs.meta.get('resourceLogRevision') ?? 0;
  }

  /**
   * Marks the directory as a cluster node's replica, and resolves the revision to follow the log
   * from, given the revision the log ends at. Refused: a directory that holds resources committed
   * outside a cluster (their versions count local commits, not revisions of the log), and one
   * that applied more of the log than the log holds (NATS lost its store, and its revisions
   * start again below this replica's) (docs/design/cluster-mechanics.md#resource-replication).
   */
  async openReplica(logHead: number): Promise<number> {
    const { root, meta, dataDir } = this.dbs;
    const revision = await root.transaction(() => {
      const applied = meta.get('resourceLogRevision');
      if (applied !== undefined || this.count() > 0) return applied;
      void meta.put('resourceLogRevision', 0);
      return 0;
    });
    if (revision === undefined) {
      throw new DataDirectoryError(
        `data directory ${dataDir} holds resources of a node outside a cluster: start a cluster node on an empty directory, or on a copy of another node's`,
      );
    }
    if (revision > logHead) {
      throw new DataDirectoryError(
        `data directory ${dataDir} holds revision ${revision} of the resource log, which ends at ${logHead}: NATS lost its store; start this node on an empty directory`,
      );
    }
    return revision;
  }

  private readonly commitListeners: Array<(key: string, view: ResourceView) => void> = [];

  /**
   * `listener` hears each view once it is durably written, by a commit that won or a change from
   * the log, before the resource's next step can begin (the push feed, the edge threads).
   */
  onCommitted(listener: (key: string, view: ResourceView) => void): void {
    this.commitListeners.push(listener);
  }

  private committed(key: string, view: ResourceView): void {
    for (const listener of this.commitListeners) listener(key, view);
  }

  /**
   * A commit in a cluster: appended to the log on condition of the revision it was computed from,
   * then written here at once, so that this node's next step of the resource starts from it. A
   * lost append writes the winner's change here instead, so that the step computed again starts
   * from it even while this replica's follower lags behind (docs/design/cluster-mechanics.md#one-writer-per-resource).
   */
  private async commitThroughLog(
    log: ResourceCommitLog,
    key: string,
    expectedVersion: number | undefined,
    change: ResourceChange,
  ): Promise<boolean> {
    const appended = await log.append(key, expectedVersion ?? 0, change);
    if (appended.appended) {
      await this.applyLogged({ key, revision: appended.revision, ...change }, false);
      return true;
    }
    this.forget(key);
    if (appended.current) await this.applyLogged(appended.current, false);
    return false;
  }

  private remember(key: string, version: number, resource: StoredResource, view: ResourceView): void {
    this.recentViews.set(key, view);
    this.recentSnapshots.set(key, { resource, version });
    this.committed(key, view);
  }

  /** What this store remembers of the resource is older than another writer's: read it afresh. */
  private forget(key: string): void {
    this.recentViews.delete(key);
    this.recentSnapshots.delete(key);
  }

  /**
   * The writes of one resource change over `base`, unconditionally, for a caller that runs them in
   * its own transaction (the benchmark seeder, before any server runs on the directory). Without a
   * `cause` no transition is recorded: the seeder's resources never made one.
   */
  stage(key: string, base: VersionedResource | undefined, change: ResourceChange): void {
    this.write(key, change, { version: nextVersion(base), previous: base?.resource, consecutive: true });
  }

  private write(key: string, change: ResourceChange, over: ChangeWrite): void {
    const { resources, views, due } = this.dbs;
    const { resource: next, view, event, cause } = change;
    const { version, previous, consecutive } = over;
    if (previous && previous.context.nextDueAt !== next.context.nextDueAt) {
      due.remove([previous.context.nextDueAt, key]);
    }
    due.put([next.context.nextDueAt, key], event);
    resources.put(key, next, version);
    views.put(key, [view.tail, view.refreshAfter]);
    this.series.record(key, previous?.context, next.context);
    if (cause) this.transitions.record(key, version, { ...cause, from: previous?.value ?? null, to: next.value }, consecutive);
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

/** Where a change is written: as which version of the resource, over which snapshot. */
interface ChangeWrite {
  version: number;
  previous: StoredResource | undefined;
  /** Whether `version` follows the previous one by one, for the transition history (a replica's revisions do not). */
  consecutive: boolean;
}

/** Versions count a resource's commits: 1 for its creation, one more for every change. */
function nextVersion(base: VersionedResource | undefined): number {
  return (base?.version ?? 0) + 1;
}
