// How a node's copy of the resources stands to the other nodes' copies (docs/architecture.md#seams):
// a node alone holds the only copy, its store itself (StoreAlone); a cluster node's store is its
// replica of the resource log (LogReplication, docs/design/cluster.md#resource-replication). The
// node chooses one, once (docs/architecture.md#one-choice-of-mode); the core and the collector
// use whichever they get alike.
import type { DueIndex } from '../../../streams/dueWork.js';
import { sharedDueIndex } from '../../cluster/dueWorkShare.js';
import { limits, replicaDefaults } from '../../config.js';
import type { Health } from '../../health.js';
import type { Logger } from '../../log.js';
import { dueIndexPastLeases } from '../../resources/dueIndexPastLeases.js';
import { CommittedLeases, type DueLeases, MemoryLeases } from '../../resources/memoryLeases.js';
import { ResourceReplica } from '../../store/resourceReplica.js';
import type { ResourceStore } from '../../store/resourceStore.js';
import type { OutcomeSink } from '../collection/ports.js';
import type { ResourceLog } from '../resourceLog/resourceLog.js';
import { ResourceLogReplica } from './resourceLogReplica.js';

export interface ResourceReplication {
  /** Where the resource host puts due steps' leases (docs/architecture.md#leases-in-memory). */
  readonly leases: DueLeases;
  /**
   * Makes `store` this node's copy of the resources, and resolves once it holds what the other
   * nodes held, so that a joining node does not answer `pending` for resources they know.
   */
  start(store: ResourceStore, health: Health, log: Logger): Promise<ResourceCopy>;
}

/** The node's copy of the resources, started. */
export interface ResourceCopy {
  /** Where the collection loop delivers outcomes, given the host that steps resources. */
  outcomes(host: OutcomeSink): OutcomeSink;
  /** The due work this node takes on, past the resources in work here. */
  dueIndex(inWork: (key: string) => boolean): DueIndex;
  /** After the resource work settled. */
  stop(): Promise<void>;
}

/** A node alone: its store is the only copy, and the leases of due work are held in memory. */
export class StoreAlone implements ResourceReplication {
  readonly leases = new MemoryLeases();

  start(store: ResourceStore): Promise<ResourceCopy> {
    const { leases } = this;
    return Promise.resolve({
      outcomes: (host) => host,
      // docs/architecture.md#leases-in-memory: the scan passes over resources whose lease runs.
      dueIndex: (inWork) =>
        dueIndexPastLeases({ index: store, leased: (key, now) => leases.holds(key, now), inWork, rescanMs: limits.dueRescanMs }),
      stop: () => Promise.resolve(),
    });
  }
}

/** A cluster node: every commit goes through the resource log, which the store follows. */
export class LogReplication implements ResourceReplication {
  readonly leases = new CommittedLeases();

  /** `node` names this node in the share of due work (docs/design/cluster.md#due-work-exactly-once). */
  constructor(
    private readonly log: ResourceLog,
    private readonly node: string,
  ) {}

  async start(store: ResourceStore, health: Health, logger: Logger): Promise<ResourceCopy> {
    const replica = await ResourceLogReplica.start(this.log, ResourceReplica.of(store, this.log), replicaDefaults, health, logger);
    await replica.caughtUp();
    return {
      // An outcome may be of a resource another node created: step it from the log's latest change.
      outcomes: (host) => replica.caughtUpOutcomes(host),
      dueIndex: (inWork) => sharedDueIndex(store, this.node, replicaDefaults.dueSpreadMs, inWork),
      stop: () => replica.stop(),
    };
  }
}
