// The composition root: one node of the service with its store, access control, resource
// host, collection loop and HTTP front end, and the order in which they stop. Wiring only: what
// each part does and how they meet is in docs/architecture.md.
import { asyncScheduler } from 'rxjs';
import { createResourceMachine, type ResourcePolicy } from '../machines/resource.js';
import type { BreakerPolicy } from '../streams/circuitBreaker.js';
import { collectResources } from '../streams/collection.js';
import { Admissions } from './access/admission.js';
import { Authenticator } from './access/authenticator.js';
import { AccountTable } from './access/accountTable.js';
import { AuthVersionBoard } from './access/authVersionBoard.js';
import { clusterSeams, embeddedSeams, type NodeSeams } from './cluster/clusterNode.js';
import type { ClusterSettings } from './cluster/clusterSettings.js';
import { sharedDueIndex } from './cluster/dueWorkShare.js';
import type { ResourceLog } from './cluster/resourceLog.js';
import { ResourceLogReplica } from './cluster/resourceLogReplica.js';
import { startCollectionLoop } from './collection/collectionLoop.js';
import { collectionDefaults, type HistoryPolicy, historyDefaults, limits, replicaDefaults } from './config.js';
import type { RunningEmulator } from './emulator/server.js';
import { Health } from './health.js';
import type { CorsOrigins } from './http/cors.js';
import { healthCheck, storageCheck } from './http/readiness.js';
import { startHttpServer, type HttpServer } from './http/server.js';
import { requestIdSource } from './http/requestIds.js';
import type { Logger } from './log.js';
import type { MetricsAddress } from './metrics/metricsAddress.js';
import { startMetricsListener } from './metrics/metricsListener.js';
import { PrometheusMetrics } from './metrics/prometheusMetrics.js';
import { PlatformStatusBoard } from './operations/platformStatus.js';
import { createCollectors } from './platforms/collectors.js';
import { createUpstreamHttp } from './platforms/http.js';
import { startDueScheduler } from './resources/dueScheduler.js';
import { ResourceHost } from './resources/host.js';
import { WorkPace } from './resources/workPace.js';
import { WorkRegistry } from './resources/workRegistry.js';
import { AccountStore } from './store/accountStore.js';
import { DailyUsage } from './store/dailyUsage.js';
import type { ResourceStore } from './store/resourceStore.js';
import { openServerDirectory } from './store/serverDirectory.js';
import { upstreamKindOf } from './store/upstreamKind.js';
import { UsageStore } from './store/usageStore.js';
import { WebStore } from './store/webStore.js';
import { startEdges } from './threads/edges.js';
import { PublishedHealth } from './threads/publishedHealth.js';
import { PublishingResourceStore } from './threads/publishingStore.js';
import { SeriesRollUp } from './store/seriesRollUp.js';
import { ConnectionCounts, createConnectionCountsBuffer } from './push/connectionCounts.js';
import { NotifyingResourceStore } from './push/notifyingStore.js';
import { createTicketState, StreamTickets } from './push/tickets.js';
import { InProcessViewChanges } from './push/viewChanges.js';
import { webPages } from './web/webPages.js';

export interface ServiceOptions {
  host: string;
  port: number;
  dataDir: string;
  /** 'real', 'emulator' (started in-process on loopback) or an emulator's base URL. */
  upstream: string;
  policy: ResourcePolicy;
  /** Datapoint history retention (`--history-detail`, `--history-days`); historyDefaults when absent. */
  history?: HistoryPolicy;
  log: Logger;
  env?: Readonly<Record<string, string | undefined>>;
  collectTimeoutMs?: number;
  /** Per-platform circuit breaker; collectionDefaults.breaker when absent. */
  breaker?: BreakerPolicy;
  /** Origins browsers may call the API from (`--cors`); none when absent. */
  cors?: CorsOrigins | undefined;
  /**
   * Edge threads answering searches (src/threads/edges.ts); absent or 0: searches are answered
   * on this thread, beside the resource work.
   */
  threads?: number;
  /** Where to serve Prometheus metrics (`--metrics`); none when absent. */
  metrics?: MetricsAddress | undefined;
  /** Mark the dashboard's session cookie Secure (`--secure-cookies`, docs/dashboard.md, "Cookies"). */
  secureCookies?: boolean;
  /** How a throttled dashboard sign-in waits (docs/dashboard.md, "Rate limits"); a timer when absent. */
  signinWait?: (ms: number) => Promise<void>;
  /**
   * Seconds a stream connection may stay silent before it is pinged and then closed
   * (docs/push.md, "Limits"); `limits.push.idleTimeoutSeconds` when absent. Answered on the
   * resource thread only: edge threads keep the default.
   */
  streamIdleTimeoutSeconds?: number;
  /** Join a cluster on NATS (`--nats`, `--role`; docs/cluster.md); a node alone when absent. */
  cluster?: ClusterSettings | undefined;
}

export interface RunningService {
  port: number;
  /** The service's own account store, for provisioning in the same process (tests, tools). */
  accounts: AccountStore;
  emulator?: RunningEmulator;
  /** Problems of background work, as its components report them. */
  health: Health;
  /** The metrics listener's port, when metrics were asked for. */
  metricsPort?: number;
  /** What each platform's collection is doing (docs/operations.md, "Platform status"). */
  platformStatus: PlatformStatusBoard;
  stop(): Promise<void>;
}

export async function startService(options: ServiceOptions): Promise<RunningService> {
  const { log } = options;
  const dataDirectory = await openServerDirectory(options.dataDir, upstreamKindOf(options.upstream));
  const { dbs } = dataDirectory;
  const role = options.cluster?.role ?? 'both';
  // docs/cluster.md, "Node roles": a collect node answers no searches, so it needs no edges.
  const threads = role === 'collect' ? 0 : (options.threads ?? 0);
  // docs/push.md, "Where changes come from": edges hear the views posted to them; one thread hears its store.
  const viewChanges = new InProcessViewChanges();
  // Loaded only when asked for: a production server runs no emulator code (docs/operations-endpoints.md, "The emulator stays out").
  const emulator = options.upstream === 'emulator' ? await (await import('./emulator/server.js')).startEmulator(0) : undefined;
  const emulatorUrl = emulator?.url ?? (options.upstream === 'real' ? undefined : options.upstream.replace(/\/+$/, ''));
  const upstreamHttp = createUpstreamHttp();
  const collectors = createCollectors(emulatorUrl, options.env ?? process.env, upstreamHttp, Date.now);
  for (const [platform, { disabledReason, limitedReason }] of collectors) {
    if (disabledReason) log.warn({ platform }, `platform disabled: ${disabledReason}; its resources stay unavailable`);
    if (limitedReason) log.warn({ platform }, `platform limited: ${limitedReason}; those stay unavailable, the others are collected`);
  }

  const health = threads > 0 ? new PublishedHealth() : new Health();
  const work = new WorkRegistry(new WorkPace(limits.resourceWork));
  const accounts = new AccountStore(dbs);
  const authVersions = new AuthVersionBoard();
  const seamNeeds = {
    leaseMs: options.policy.leaseMs,
    usage: new UsageStore(dbs),
    accounts,
    web: new WebStore(dbs),
    daily: new DailyUsage(dbs),
    // A replicated change is in force at once: every authenticator sees the new version.
    onAccountsChanged: () => authVersions.publish(accounts.authVersion()),
    health,
    log,
  };
  const seams = options.cluster ? await clusterSeams(options.cluster, seamNeeds) : embeddedSeams(seamNeeds);
  const { queue, ledger, rateLedger } = seams;
  // In a cluster every commit goes through the resource log, and this node's LMDB replicates it
  // (docs/cluster.md, "Resource replication"); searches still read only the LMDB.
  const resourceLog = seams.resources?.log;
  const history = options.history ?? historyDefaults;
  const store =
    threads > 0
      ? new PublishingResourceStore(dbs, resourceLog, history)
      : new NotifyingResourceStore(dbs, viewChanges, resourceLog, history);
  // docs/history.md#roll-up: the resource thread rolls old detail into days between its other work.
  const rollUp = store.series.recording ? new SeriesRollUp(dbs, store.series, Date.now) : undefined;
  rollUp?.start();
  const replica = resourceLog ? await startReplica(resourceLog, store, health, log, seams) : undefined;
  const resourceHost = new ResourceHost({
    store,
    machine: createResourceMachine(options.policy),
    work,
    requestCollection: (key) => {
      queue.request(key).catch((error: unknown) => log.error({ err: error, resource: key }, 'collection not requested'));
    },
    now: Date.now,
    random: Math.random,
    onError: (key, error) => log.error({ err: error, resource: key }, 'resource event failed'),
  });

  const platformStatus = new PlatformStatusBoard(collectors, Date.now, () => seams.queueDepth?.() ?? null);
  // Each collector call is counted against its platform's budget.
  const countedCollectors = new Map(
    [...collectors].map(([platform, { collector, budget }]) => [
      platform,
      { collector: platformStatus.counted(platform, collector), budget },
    ]),
  );
  const metrics = options.metrics
    ? new PrometheusMetrics({
        breakerStates: () => platformStatus.breakerStates(),
        queueDepths: () => [
          ...(seams.queueDepth ? [['collection', seams.queueDepth()] as const] : []),
          ['in_work', work.size],
          ['collecting', work.collecting],
        ],
        storage: dbs.root,
      })
    : undefined;
  const collectionTimeoutMs = options.collectTimeoutMs ?? collectionDefaults.timeoutMs;
  const collects = role !== 'search';
  const collection = collects
    ? startCollectionLoop({
        queue,
        // An outcome may be of a resource another node created: step it from the log's latest change.
        sink: replica ? replica.freshOutcomes(resourceHost) : resourceHost,
        claims: work,
        collect: platformStatus.watched((keys) =>
          collectResources(keys, {
            collectors: countedCollectors,
            scheduler: asyncScheduler,
            timeoutMs: collectionTimeoutMs,
            batchWindowMs: collectionDefaults.batchWindowMs,
            breaker: options.breaker ?? collectionDefaults.breaker,
            onBreakerChange: (platform, change) => {
              platformStatus.breakerChanged(platform, change);
              log.warn({ platform, ...change }, `circuit breaker ${change.state}`);
            },
            // docs/cluster.md, "Upstream budgets cluster-wide": a node alone keeps both to itself.
            pauses: seams.pauses,
            sharedBudget: seams.callBudget,
          }),
        ),
        maxCollecting: limits.maxResourcesInWork,
        pollMs: limits.collectionPollMs,
        restartDelayMs: limits.pipelineRestartMs,
        scheduler: asyncScheduler,
        log,
        health,
        metrics,
      })
    : undefined;
  const dueScheduler = collects
    ? startDueScheduler({
        index: seams.resources ? sharedDueIndex(store, seams.resources.node, replicaDefaults.dueSpreadMs, (key) => work.has(key)) : store,
        resourceHost,
        work,
        maxInWork: limits.maxResourcesInWork,
        scanBatch: limits.dueScanBatch,
        scanMs: limits.dueScanMs,
        restartDelayMs: limits.pipelineRestartMs,
        now: Date.now,
        scheduler: asyncScheduler,
        log,
        health,
      })
    : undefined;

  const metricsListener = options.metrics && metrics ? await startMetricsListener(options.metrics, metrics, log) : undefined;
  const accountTable = AccountTable.create();
  const streamState = { tickets: createTicketState(), connections: createConnectionCountsBuffer(accountTable) };
  const readiness = [storageCheck(dbs.root), healthCheck(health)];
  // One server thread: it authenticates itself, with an authenticator that lives as long as it.
  // With edge threads each edge has its own, and this thread needs none.
  const startOneThread = async (): Promise<HttpServer> => {
    const authenticator = new Authenticator(accounts, log, authVersions, health);
    const pages = webPages({
      dbs,
      log,
      secureCookies: options.secureCookies === true,
      sleep: options.signinWait,
      platforms: platformStatus,
      writes: seams.dashboard,
    });
    const server = await startHttpServer(
      options.host,
      options.port,
      {
        authenticator,
        admissions: new Admissions({ table: accountTable, ledger, rateLedger, log, now: Date.now }),
        views: store,
        demand: resourceHost,
        log,
        nextRequestId: requestIdSource(),
        now: Date.now,
      },
      {
        cors: options.cors,
        readiness,
        metrics,
        pages,
        history: store.series,
        searches: role !== 'collect',
        stream: {
          changes: viewChanges,
          tickets: new StreamTickets(streamState.tickets),
          connections: new ConnectionCounts(accountTable, streamState.connections, limits.push.maxConnectionsPerAccount),
          idleTimeoutSeconds: options.streamIdleTimeoutSeconds,
        },
      },
    );
    return { ...server, close: () => server.close().finally(() => authenticator.close()) };
  };
  const http =
    store instanceof PublishingResourceStore && health instanceof PublishedHealth
      ? await startEdges({
          threads,
          host: options.host,
          port: options.port,
          dataDir: options.dataDir,
          cors: options.cors,
          secureCookies: options.secureCookies === true,
          accountTable,
          authVersions,
          ledger: seams.remoteLedger ? ledger : undefined,
          rateLedger,
          dashboard: seams.dashboard,
          store,
          demand: resourceHost,
          log,
          logLevel: log.level,
          health,
          metrics,
          stream: streamState,
          platformStatus,
        })
      : await startOneThread();
  // docs/guarantees.md, "Quota and rate across threads": once no thread admits any more.
  const returnUnspentQuota = () => new Admissions({ table: accountTable, ledger, rateLedger, log, now: Date.now }).returnUnspent();
  log.info({ port: http.port, upstream: emulatorUrl ?? 'real', resources: store.count() }, 'service started');

  return {
    port: http.port,
    accounts,
    emulator,
    health,
    metricsPort: metricsListener?.port,
    platformStatus,
    // docs/architecture.md, "Stopping": owed answers are written while the collections out
    // finish or are given back, so that a restart collects them at once.
    async stop() {
      const stopping = performance.now();
      log.info('stopping');
      dueScheduler?.unsubscribe();
      await Promise.all([http.close().then(returnUnspentQuota), collection?.stop(limits.collectionStopGraceMs)]);
      await resourceHost.settled();
      await rollUp?.stop();
      // The queue and ledger last: the give-back above and the collections' answers go through them.
      await replica?.stop();
      await seams.close();
      await upstreamHttp.close();
      emulator?.close();
      metricsListener?.close();
      await dataDirectory.close();
      log.info({ ms: Math.round(performance.now() - stopping) }, 'stopped');
    },
  };
}

/**
 * Starts the node's replica of the resource log and waits until it holds what the cluster held,
 * so that a joining node does not answer `pending` for resources the cluster knows. A directory
 * that cannot be a replica is refused; the node's NATS connection is closed then.
 */
async function startReplica(
  resourceLog: ResourceLog,
  store: ResourceStore,
  health: Health,
  log: Logger,
  seams: NodeSeams,
): Promise<ResourceLogReplica> {
  try {
    const replica = await ResourceLogReplica.start(resourceLog, store, replicaDefaults, health, log);
    await replica.caughtUp();
    return replica;
  } catch (error) {
    await seams.close();
    throw error;
  }
}
