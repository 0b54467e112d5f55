// A node's replica of the cluster's resource log (docs/design/cluster.md#resource-replication):
// each change written to its LMDB in log order, with the revision applied, so searches never wait on NATS.
import type { OutcomeSink } from '../collection/ports.js';
import type { Health } from '../../health.js';
import type { Logger } from '../../log.js';
import type { CollectionOutcome } from '../../model.js';
import type { ResourceReplica } from '../../store/resourceReplica.js';
import type { LogFollower, ResourceLog } from '../resourceLog/resourceLog.js';

export interface ResourceLogReplicaOptions {
  /** Changes handed to LMDB and not yet written, at most: LMDB writes a batch in one transaction. */
  maxPendingWrites: number;
  /** Pause before following the log again after a failure. */
  restartDelayMs: number;
}

/** The Health component the replica reports under while it cannot follow the log. */
export const replicaHealth = 'resource replica';

export class ResourceLogReplica {
  private applied: number;
  private waiters: Array<{ revision: number; resolve: () => void }> = [];
  private follower: LogFollower | undefined;
  private stopped = false;
  private readonly running: Promise<void>;

  /**
   * Starts following `log` into `store`, from the revision the store recorded. Refuses, with a
   * DataDirectoryError, a directory that cannot be a replica of this log (ResourceReplica.open).
   */
  static async start(
    log: ResourceLog,
    store: ResourceReplica,
    options: ResourceLogReplicaOptions,
    health: Health,
    logger: Logger,
  ): Promise<ResourceLogReplica> {
    const applied = await store.open(await log.head());
    return new ResourceLogReplica(log, store, options, health, logger, applied);
  }

  private constructor(
    private readonly log: ResourceLog,
    private readonly store: ResourceReplica,
    private readonly options: ResourceLogReplicaOptions,
    private readonly health: Health,
    private readonly logger: Logger,
    applied: number,
  ) {
    this.applied = applied;
    this.running = this.run();
  }

  /** The revision up to which this replica has applied the log. */
  get appliedRevision(): number {
    return this.applied;
  }

  /** Resolves once this replica has applied the log up to `revision`. */
  untilApplied(revision: number): Promise<void> {
    if (this.applied >= revision) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ revision, resolve }));
  }

  /** Resolves once this replica has applied everything the log held when called. */
  async caughtUp(): Promise<void> {
    await this.untilApplied(await this.log.head());
  }

  /**
   * Writes the key's last change into the replica now, ahead of the follower. For a node about to
   * step the resource on another node's request (an outcome of a collection that node asked for),
   * whose own copy may not have that node's change yet.
   */
  async freshen(key: string): Promise<void> {
    const latest = await this.log.latest(key);
    if (latest) await this.store.applyLogged(latest, false);
  }

  /**
   * An OutcomeSink that freshens the resource before `sink` records an outcome of a resource this
   * replica holds no copy of (another node created it and asked for the collection), or ends a
   * lease. A copy it holds is not read from the log first (a NATS request per collection): the
   * machine takes an outcome in every state, so a step from a lagging copy is only refused by the
   * log's revision check, which writes the winner's change here, and the host steps again from it
   * (docs/design/cluster.md#one-writer-per-resource).
   */
  caughtUpOutcomes(sink: OutcomeSink): OutcomeSink {
    return {
      deliver: async (key: string, outcome: CollectionOutcome) => {
        if (!this.store.holds(key)) await this.freshen(key);
        await sink.deliver(key, outcome);
      },
      // Ending the lease is a step like any other: from a stale state it would lose, and is not retried.
      abandoned: async (key: string) => {
        await this.freshen(key);
        await sink.abandoned(key);
      },
    };
  }

  /** Stops following; resolves once every change taken from the log is written. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.follower?.stop();
    await this.running;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.followOnce();
      } catch (error) {
        if (this.stopped) return;
        const message = error instanceof Error ? error.message : String(error);
        this.logger.error({ err: error }, 'following the resource log failed; it starts again');
        this.health.report(replicaHealth, `cannot follow the resource log: ${message}`);
      }
      // Also after a follower that ended by itself (its connection closed): never a busy loop.
      if (!this.stopped) await new Promise((resolve) => setTimeout(resolve, this.options.restartDelayMs));
    }
  }

  /**
   * Writes without waiting for each transaction, up to `maxPendingWrites` at once: LMDB commits
   * them in the order given, each recording its own revision, so the recorded revision is always
   * that of a change written with everything before it. A write that fails ends this pass; the
   * next follows again from the revision recorded.
   */
  private async followOnce(): Promise<void> {
    const follower = await this.log.follow(this.store.appliedRevision());
    this.follower = follower;
    if (this.stopped) follower.stop();
    const pending: Array<Promise<void>> = [];
    let failure: { error: unknown } | undefined;
    try {
      for await (const change of follower) {
        pending.push(
          this.store.applyLogged(change, true).then(
            () => this.passed(change.revision),
            (error: unknown) => {
              failure ??= { error };
            },
          ),
        );
        if (pending.length >= this.options.maxPendingWrites) await pending.shift();
        if (failure) break;
        this.health.clear(replicaHealth);
      }
    } finally {
      follower.stop();
      await Promise.all(pending);
    }
    if (failure) throw failure.error;
  }

  private passed(revision: number): void {
    this.applied = revision;
    if (this.waiters.length === 0) return;
    const reached = this.waiters.filter((waiter) => waiter.revision <= revision);
    this.waiters = this.waiters.filter((waiter) => waiter.revision > revision);
    for (const waiter of reached) waiter.resolve();
  }
}
