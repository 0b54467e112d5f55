// A cluster node's replica of the resource log in its LMDB (docs/design/cluster.md#resource-replication):
// the store's commits go through the log, and the log's changes are written into the store.
import { DataDirectoryError } from './dataDirectoryError.js';
import type { CommitStrategy, ResourceChange, ResourceStore, StoreWrites, VersionedResource } from './resourceStore.js';

/** A change as a shared log holds it: its revision orders it among all the log's changes. */
export interface LoggedChange extends ResourceChange {
  key: string;
  /** The log's sequence number of this change; a resource's version in a replica is its revision. */
  revision: number;
}

export type AppendResult = { appended: true; revision: number } | { appended: false; current: LoggedChange | undefined };

/**
 * The part of a cluster's resource log that decides commits
 * (docs/design/cluster.md#one-writer-per-resource): a change is appended only if the
 * key's last revision is still the one it was computed from (0: the key has none). A refusal
 * carries the change that won.
 */
export interface ResourceCommitLog {
  append(key: string, expectedRevision: number, change: ResourceChange): Promise<AppendResult>;
}

export class ResourceReplica implements CommitStrategy {
  /** Makes `store` commit through `log`: from now on its LMDB is this node's replica of the log. */
  static of(store: ResourceStore, log: ResourceCommitLog): ResourceReplica {
    return store.commitThrough((writes) => new ResourceReplica(writes, log));
  }

  private constructor(
    private readonly writes: StoreWrites,
    private readonly log: ResourceCommitLog,
  ) {}

  /**
   * Appended to the log on condition of the revision `base` was (0: none), then written here at
   * once, so that this node's next step of the resource starts from it. A lost append writes the
   * winner's change here instead, so that the step computed again starts from it even while this
   * replica's follower lags behind (docs/design/cluster.md#one-writer-per-resource).
   */
  async commit(key: string, base: VersionedResource | undefined, change: ResourceChange): Promise<boolean> {
    const appended = await this.log.append(key, base?.version ?? 0, change);
    if (appended.appended) {
      await this.applyLogged({ key, revision: appended.revision, ...change }, false);
      return true;
    }
    this.writes.forget(key);
    if (appended.current) await this.applyLogged(appended.current, false);
    return false;
  }

  /**
   * Writes a change from the log, in one transaction, if it is newer than the resource's stored
   * revision; `advanceCursor` also records its revision as the last one applied in log order, in
   * the same transaction, so that a restart resumes after it. Resolves whether it was written.
   */
  async applyLogged(change: LoggedChange, advanceCursor: boolean): Promise<boolean> {
    const { writes } = this;
    const { root, resources, meta } = writes.dbs;
    const { key, revision } = change;
    const written = await root.transaction(() => {
      const stored = resources.getEntry(key);
      const newer = !stored || (stored.version ?? 0) < revision;
      // A resource's revisions in the log are not consecutive: its history is bounded by reading it.
      if (newer) writes.write(key, change, { version: revision, previous: stored?.value, consecutive: false });
      if (advanceCursor) void meta.put('resourceLogRevision', revision);
      // A commit through the log marks the directory as a replica, even before its follower runs.
      else if (meta.get('resourceLogRevision') === undefined) void meta.put('resourceLogRevision', 0);
      return newer;
    });
    if (written) writes.committed(key, revision, change);
    return written;
  }

  /** Whether this replica holds a copy of the resource, however old. */
  holds(key: string): boolean {
    return this.writes.dbs.resources.doesExist(key);
  }

  /** The revision of the last change applied in log order (0: none yet). */
  appliedRevision(): number {
    return this.writes.dbs.meta.get('resourceLogRevision') ?? 0;
  }

  /**
   * Marks the directory as a cluster node's replica, and resolves the revision to follow the log
   * from, given the revision the log ends at. Refused: a directory that holds resources committed
   * outside a cluster (their versions count local commits, not revisions of the log), and one
   * that applied more of the log than the log holds (NATS lost its store, and its revisions
   * start again below this replica's).
   */
  async open(logHead: number): Promise<number> {
    const { root, meta, dataDir } = this.writes.dbs;
    const revision = await root.transaction(() => {
      const applied = meta.get('resourceLogRevision');
      if (applied !== undefined || this.writes.count() > 0) return applied;
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
}
