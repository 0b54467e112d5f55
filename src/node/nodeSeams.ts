// Which seams a node runs on (docs/cluster.md#serving-in-a-cluster): the embedded ones without
// `--nats`, the cluster's with it. The one place that knows which (docs/architecture.md#one-choice-of-mode):
// both give every seam, none optional. Wiring only: the service takes what this returns.
import { hostname } from 'node:os';
import type { NatsConnection } from '@nats-io/transport-node';
import type { SharedCallBudget } from '../../streams/platformGate.js';
import { InProcessPlatformPauses, type PlatformPauses } from '../../streams/platformPauses.js';
import { UnsharedCallBudget } from '../../streams/unsharedCallBudget.js';
import type { CollectionQueue } from '../seams/collection/ports.js';
import { InProcessCollectionQueue } from '../seams/collection/inProcessQueue.js';
import { clusterDefaults } from '../config.js';
import type { Health } from '../health.js';
import type { Logger } from '../log.js';
import type { AccountStore, AccountsCatchUp } from '../store/accountStore.js';
import type { DailyUsage } from '../store/dailyUsage.js';
import type { ReservedUnits, ReservedUnitsRecord } from '../seams/reservedUnits/reservedUnits.js';
import { ClusterReservedUnits } from '../seams/reservedUnits/clusterReservedUnits.js';
import type { QuotaLedger } from '../seams/quotaLedger/quotaLedger.js';
import type { UsageStore } from '../seams/quotaLedger/usageStore.js';
import type { DashboardWrites, WebStore } from '../seams/webRecords/webStore.js';
import { AccountReplica } from '../seams/replicas/accountReplica.js';
import type { ClusterSettings } from '../cluster/clusterSettings.js';
import { ClusterAccounts } from '../cluster/clusterAccounts.js';
import { ClusterCallBudget } from '../seams/callBudget/clusterCallBudget.js';
import { ClusterDailyUsage } from '../cluster/clusterDailyUsage.js';
import { ClusterWeb } from '../seams/webRecords/clusterWeb.js';
import { replicateDailyUsage } from '../seams/replicas/dailyUsageReplica.js';
import { DayCountingLedger } from '../seams/quotaLedger/dayCountingLedger.js';
import { ConnectedLedger, ConnectionGate, followConnection } from '../seams/quotaLedger/connectedLedger.js';
import { JetStreamCollectionQueue, defaultQueueOptions } from '../seams/collection/jetStreamQueue.js';
import { KvQuotaLedger } from '../seams/quotaLedger/kvQuotaLedger.js';
import { KvRateLedger } from '../seams/quotaLedger/kvRateLedger.js';
import { closeNats, connectNats } from '../cluster/natsConnection.js';
import { NatsPlatformPauses } from '../seams/platformPauses/natsPlatformPauses.js';
import { LogReplication, type ResourceReplication, StoreAlone } from '../seams/replicas/resourceReplication.js';
import { defaultResourceLogOptions, JetStreamResourceLog } from '../seams/resourceLog/resourceLogStream.js';
import { WebReplica } from '../seams/webRecords/webReplica.js';

export interface NodeSeams {
  queue: CollectionQueue;
  /** Requests waiting; null where the queue cannot tell cheaply (the cluster's: NATS keeps it). */
  queueDepth: () => number | null;
  ledger: QuotaLedger;
  /**
   * The ledger of rate windows, in a cluster (docs/design/cluster.md#rate-limit-across-nodes); a node
   * alone keeps its windows in memory and has none.
   */
  rateLedger: QuotaLedger | undefined;
  /** True when the ledgers are reached over the network: edge threads then borrow this thread's. */
  remoteLedger: boolean;
  /**
   * How the node's store stands to the other nodes': the only copy alone; in a cluster the replica
   * of the log every resource commit goes through (docs/design/cluster.md#resource-replication).
   */
  resources: ResourceReplication;
  /**
   * Where rate-limit pauses are announced and heard: this node alone, or every node of the
   * cluster (docs/design/cluster.md#upstream-budgets-cluster-wide).
   */
  pauses: PlatformPauses;
  /** The platforms' call budgets: shared with nobody alone, by every collecting node in a cluster. */
  callBudget: SharedCallBudget;
  /** Where the dashboard and console write: the data directory's LMDB alone, the cluster's (docs/dashboard.md#in-a-cluster). */
  dashboard: DashboardWrites;
  /**
   * In a cluster: how a node that does not know a token holds what the cluster holds before it
   * refuses it (docs/design/cluster.md#a-token-new-to-a-node); a node alone knows every token.
   */
  accountsCatchUp: AccountsCatchUp | undefined;
  /** Where the server records its units in hand: the LMDB's; in a cluster, shared and summed (docs/operations.md#usage-shown). */
  reservedUnits: ReservedUnitsRecord;
  /** After the collection loop and the HTTP server stopped: nothing uses the seams any more. */
  close(): Promise<void>;
}

export interface SeamInputs {
  leaseMs: number;
  usage: UsageStore;
  accounts: AccountStore;
  /** The dashboard's records and the per-day counts of this node's LMDB, which a cluster node replicates. */
  web: WebStore;
  daily: DailyUsage;
  /** This node's record of units in hand, which its displays read. */
  reservedUnits: ReservedUnits;
  /** Called after a replicated change is in the LMDB: the authenticators look again at once. */
  onAccountsChanged: () => void;
  health: Health;
  log: Logger;
}

export function embeddedSeams(needs: SeamInputs): NodeSeams {
  const queue = new InProcessCollectionQueue(needs.leaseMs, Date.now);
  return {
    queue,
    queueDepth: () => queue.depth,
    ledger: needs.usage,
    rateLedger: undefined,
    remoteLedger: false,
    resources: new StoreAlone(),
    pauses: new InProcessPlatformPauses(Date.now),
    callBudget: new UnsharedCallBudget(),
    dashboard: { records: needs.web, accounts: needs.accounts },
    accountsCatchUp: undefined,
    reservedUnits: needs.reservedUnits,
    close: () => Promise.resolve(),
  };
}

/** Connects (rejecting when no server answers now) and opens the cluster's seams on it. */
export async function clusterSeams(settings: ClusterSettings, needs: SeamInputs): Promise<NodeSeams> {
  const node = `datapoints ${hostname()} ${process.pid}`;
  const connection = await connectNats({ servers: settings.servers, name: node }).catch((error: unknown) => {
    throw new Error(`cannot reach NATS at ${settings.servers.join(',')}: ${error instanceof Error ? error.message : String(error)}`);
  });
  reportConnection(connection, needs.health);
  // docs/cluster.md#nats-outage: reservations fail at once while NATS is unreachable.
  const gate = new ConnectionGate();
  void followConnection(connection.status(), gate);
  try {
    const queue = await JetStreamCollectionQueue.open(connection, defaultQueueOptions(needs.leaseMs), needs.health);
    const rateLedger = new ConnectedLedger(
      await KvRateLedger.open(connection, {
        buckets: clusterDefaults.rateBuckets,
        graceMs: clusterDefaults.rateEntryGraceMs,
        replicas: 1,
        requestTimeoutMs: clusterDefaults.requestTimeoutMs,
      }),
      gate,
    );
    const days = await ClusterDailyUsage.open(connection);
    const ledger = new DayCountingLedger(
      new ConnectedLedger(await KvQuotaLedger.open(connection, { replicas: 1, requestTimeoutMs: clusterDefaults.requestTimeoutMs }), gate),
      days,
      needs.log,
    );
    const resourceLog = await JetStreamResourceLog.open(connection, defaultResourceLogOptions());
    const { upstreamBudget, requestTimeoutMs } = clusterDefaults;
    const pauses = await NatsPlatformPauses.open(connection, { requestTimeoutMs, now: Date.now, log: needs.log });
    const callBudget = await ClusterCallBudget.open(
      connection,
      { requestTimeoutMs, keptMs: upstreamBudget.keptMs },
      { ...upstreamBudget, now: Date.now, health: needs.health, log: needs.log },
    );
    const replica = await AccountReplica.start(await ClusterAccounts.open(connection), needs.accounts, {
      log: needs.log,
      onChanged: needs.onAccountsChanged,
    });
    const quiet = { log: needs.log, onChanged: () => undefined };
    const web = await WebReplica.start(
      await ClusterWeb.open(connection),
      needs.web,
      (name) => {
        needs.accounts.refresh();
        return needs.accounts.account(name) !== undefined;
      },
      quiet,
    );
    const daily = await replicateDailyUsage(days, needs.daily, quiet);
    const reservedUnits = await ClusterReservedUnits.open(connection, needs.reservedUnits, { node, log: needs.log });
    return {
      queue,
      queueDepth: () => null,
      ledger,
      rateLedger,
      remoteLedger: true,
      resources: new LogReplication(resourceLog, node),
      pauses,
      callBudget,
      dashboard: { records: web, accounts: replica },
      // Cut off from NATS, a node answers from what it holds at once (docs/cluster.md#nats-outage).
      accountsCatchUp: { catchUp: () => gate.run(() => replica.catchUp()) },
      reservedUnits,
      async close() {
        queue.close();
        await reservedUnits.stop();
        pauses.stop();
        await ledger.flush(clusterDefaults.dailyFlushMs);
        replica.stop();
        web.stop();
        daily.stop();
        await closeNats(connection);
      },
    };
  } catch (error) {
    await closeNats(connection);
    throw error;
  }
}

/**
 * docs/cluster.md#nats-outage: a node cut off from NATS says so in its health, which /readyz
 * reports (on every edge thread too) until the connection is back.
 */
function reportConnection(connection: NatsConnection, health: Health): void {
  void (async () => {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect') health.report('nats', 'not connected');
      else if (status.type === 'reconnect') health.clear('nats');
    }
  })();
}
