// The node core (docs/architecture.md#the-assemblies): the data directory, its stores, the
// seams (embedded or the cluster's, chosen here once: docs/architecture.md#one-choice-of-mode),
// the resource host, and the node's copy of the resources. Every role has one; the collector and
// the front end use it.
import { createResourceMachine, type ResourcePolicy } from '../../machines/resource.js';
import { AuthVersionBoard } from '../access/authVersionBoard.js';
import { clusterSeams, embeddedSeams, type NodeSeams } from './nodeSeams.js';
import type { ClusterSettings } from '../cluster/clusterSettings.js';
import type { ResourceCopy } from '../seams/replicas/resourceReplication.js';
import { type HistoryPolicy, limits } from '../config.js';
import { Health } from '../health.js';
import type { Logger } from '../log.js';
import { ResourceHost } from '../resources/host.js';
import { SearchesFirstQueue } from '../resources/searchesFirstQueue.js';
import { WorkRegistry } from '../resources/workRegistry.js';
import type { EdgeLoadBoard } from '../threads/edgeLoad.js';
import { AccountStore } from '../store/accountStore.js';
import { DailyUsage } from '../store/dailyUsage.js';
import type { Databases } from '../store/environment.js';
import { ResourceStore } from '../store/resourceStore.js';
import { SeriesRollUp } from '../store/seriesRollUp.js';
import { CommitRefused, reportRefusals, storageComponent } from '../store/storageSpace.js';
import { openServerDirectory } from '../store/serverDirectory.js';
import type { UpstreamKind } from '../store/records.js';
import { UsageStore } from '../seams/quotaLedger/usageStore.js';
import { WebStore } from '../seams/webRecords/webStore.js';
import { ReservedUnits } from '../seams/reservedUnits/reservedUnits.js';
import type { WriteFault } from '../store/guardedWrites.js';

export interface NodeCoreOptions {
  dataDir: string;
  upstreamKind: UpstreamKind;
  policy: ResourcePolicy;
  /** Datapoint history retention (docs/history.md#retention). */
  history: HistoryPolicy;
  /** The cluster to join; a node alone when absent. */
  cluster: ClusterSettings | undefined;
  /** With edge threads: how busy they are, so that resource work leaves them the core (docs/architecture.md#searches-first). */
  edgeLoad: EdgeLoadBoard | undefined;
  log: Logger;
  /** Tests only: refuses commits as a full disk would (src/store/guardedWrites.ts). */
  writeFault?: WriteFault | undefined;
}

export interface NodeCore {
  dbs: Databases;
  health: Health;
  work: WorkRegistry;
  accounts: AccountStore;
  authVersions: AuthVersionBoard;
  seams: NodeSeams;
  store: ResourceStore;
  resourceHost: ResourceHost;
  /** The node's copy of the resources: where outcomes go, which due work it takes. */
  copy: ResourceCopy;
  /** After the collector and the front end stopped: waits for the resource work, then closes. */
  stop(): Promise<void>;
}

export async function openNodeCore(options: NodeCoreOptions): Promise<NodeCore> {
  const { log } = options;
  const dataDirectory = await openServerDirectory(options.dataDir, options.upstreamKind, options.writeFault);
  const { dbs } = dataDirectory;
  const health = new Health();
  logStorage(health, log);
  reportRefusals(dbs.storage, health);
  const { edgeLoad } = options;
  const work = new WorkRegistry(new SearchesFirstQueue(limits.resourceWork, { edgeLoad: edgeLoad && (() => edgeLoad.busiest()) }));
  const accounts = new AccountStore(dbs);
  const authVersions = new AuthVersionBoard();
  const seamNeeds = {
    leaseMs: options.policy.leaseMs,
    usage: new UsageStore(dbs),
    accounts,
    web: new WebStore(dbs),
    daily: new DailyUsage(dbs),
    reservedUnits: new ReservedUnits(dbs),
    // A replicated change is in force at once: every authenticator sees the new version.
    onAccountsChanged: () => authVersions.publish(accounts.authVersion()),
    health,
    log,
  };
  const seams = options.cluster ? await clusterSeams(options.cluster, seamNeeds) : embeddedSeams(seamNeeds);
  const store = new ResourceStore(dbs, options.history);
  // docs/history.md#roll-up: the resource thread rolls old detail into days between its other work.
  const rollUp = store.series.recording ? new SeriesRollUp(dbs, store.series, Date.now) : undefined;
  rollUp?.start();
  // Searches read only the LMDB, whichever copy it is (docs/design/cluster.md#resource-replication).
  const copy = await startCopy(seams, store, health, log);
  const resourceHost = new ResourceHost({
    store,
    machine: createResourceMachine(options.policy),
    work,
    requestCollection: (key) => {
      seams.queue.request(key).catch((error: unknown) => log.error({ err: error, resource: key }, 'collection not requested'));
    },
    now: Date.now,
    random: Math.random,
    onError: (key, error) => {
      // Refused by a full store: said once by the store; the resource stays as stored, and due (docs/storage.md#a-full-disk).
      if (!(error instanceof CommitRefused)) log.error({ err: error, resource: key }, 'resource event failed');
    },
    leases: seams.resources.leases,
  });
  return {
    dbs,
    health,
    work,
    accounts,
    authVersions,
    seams,
    store,
    resourceHost,
    copy,
    async stop() {
      await resourceHost.settled();
      await rollUp?.stop();
      // The queue and ledger last: the front end's give-back and the collections' answers go through them.
      await copy.stop();
      await seams.close();
      await dataDirectory.close();
    },
  };
}

/**
 * Starts the node's copy of the resources. A directory that cannot be a replica is refused; the
 * seams (the node's NATS connection) are closed then.
 */
async function startCopy(seams: NodeSeams, store: ResourceStore, health: Health, log: Logger): Promise<ResourceCopy> {
  try {
    return await seams.resources.start(store, health, log);
  } catch (error) {
    await seams.close();
    throw error;
  }
}

/**
 * A store that refuses commits is said once in the log, when the first thread reports it, and
 * once more when all have found room again (docs/storage.md#a-full-disk).
 */
function logStorage(health: Health, log: Logger): void {
  let refusing = false;
  health.onChanged(() => {
    const problem = health.problems().find(({ component }) => component === storageComponent);
    if (problem && !refusing) log.error(problem.message);
    if (!problem && refusing) log.info('data store writable again: commits go through');
    refusing = problem !== undefined;
  });
}
