// The composition root: one node of the service put together from its assemblies in src/node/
// (docs/architecture.md#the-assemblies): the core, the platforms it reaches, the collector where
// its role collects, the front end, and the order in which they stop.
import type { ResourcePolicy } from '../machines/resource.js';
import type { BreakerPolicy } from '../streams/circuitBreaker.js';
import type { AccountStore } from './store/accountStore.js';
import type { ClusterSettings } from './cluster/clusterSettings.js';
import { collectionDefaults, type HistoryPolicy, historyDefaults } from './config.js';
import type { RunningEmulator } from './emulator/server.js';
import type { Health } from './health.js';
import type { Logger } from './log.js';
import type { MetricsAddress } from './metrics/metricsAddress.js';
import type { HostAllowList } from './platforms/hostSafety/allowList.js';
import { startCollector } from './node/collector.js';
import { startFrontEnd } from './node/frontEnd.js';
import { openNodeCore } from './node/nodeCore.js';
import { startNodeMetrics } from './node/nodeMetrics.js';
import { openUpstreams } from './node/upstreams.js';
import type { PlatformStatusBoard } from './operations/platformStatus.js';
import { upstreamKindOf } from './store/upstreamKind.js';
import type { SigninWait } from './threads/edgeLink.js';
import { EdgeLoadBoard } from './threads/edgeLoad.js';
import type { FrontEndChoices } from './threads/edgeMessages.js';
import type { WriteFault } from './store/guardedWrites.js';

/** The readiness problem of a server not yet listening on every edge. */
export const startingComponent = 'server';
const starting = 'starting: this server does not listen on its port yet';

/** The front end's choices (FrontEndChoices: `--cors`, `--secure-cookies`, ...) are each absent for their default. */
export interface ServiceOptions extends Partial<FrontEndChoices> {
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
  /**
   * Edge threads answering searches (src/threads/edges.ts); absent or 0: searches are answered
   * on this thread, beside the resource work.
   */
  threads?: number;
  /** Where to serve Prometheus metrics (`--metrics`); none when absent. */
  metrics?: MetricsAddress | undefined;
  /** How a throttled dashboard sign-in waits (docs/dashboard.md#rate-limits); a timer when absent. */
  signinWait?: SigninWait;
  /** Join a cluster on NATS (`--nats`, `--role`; docs/cluster.md); a node alone when absent. */
  cluster?: ClusterSettings | undefined;
  /** `--allow-private-hosts` (docs/host-safety.md#the-allow-list); none when absent. */
  allowPrivateHosts?: HostAllowList | undefined;
  /**
   * Called once every edge listens on `port`, before readiness turns true
   * (docs/operations-endpoints.md#readiness-while-starting): where `serve` says it listens.
   */
  onListening?: (port: number) => void;
  /**
   * Told when the node cannot go on and must stop (edge threads that keep ending:
   * docs/guarantees.md#restart-storms); the error is thrown where nothing is told.
   */
  onFatal?: (error: Error) => void;
  /** Tests only: refuses the data store's commits as a full disk would (docs/storage.md#a-full-disk); no flag sets it. */
  writeFault?: WriteFault;
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
  /** What each platform's collection is doing (docs/operations.md#platform-status). */
  platformStatus: PlatformStatusBoard;
  stop(): Promise<void>;
}

export async function startService(options: ServiceOptions): Promise<RunningService> {
  const { log } = options;
  const role = options.cluster?.role ?? 'both';
  // docs/cluster.md#node-roles: a collect node answers no searches, so it needs no edges.
  const threads = role === 'collect' ? 0 : (options.threads ?? 0);
  const edgeLoad = threads > 0 ? new EdgeLoadBoard(threads) : undefined;
  const core = await openNodeCore({
    dataDir: options.dataDir,
    upstreamKind: upstreamKindOf(options.upstream),
    policy: options.policy,
    history: options.history ?? historyDefaults,
    cluster: options.cluster,
    edgeLoad,
    log,
    writeFault: options.writeFault,
  });
  const upstreams = await openUpstreams({
    upstream: options.upstream,
    env: options.env ?? process.env,
    allowPrivateHosts: options.allowPrivateHosts,
    queueDepth: core.seams.queueDepth,
    log,
  });
  // docs/operations-endpoints.md#readiness-while-starting: not ready before it says it listens.
  core.health.report(startingComponent, starting);
  const metrics = options.metrics ? await startNodeMetrics(options.metrics, core, upstreams, log) : undefined;
  const collector =
    role === 'search'
      ? undefined
      : startCollector({
          core,
          upstreams,
          timeoutMs: options.collectTimeoutMs ?? collectionDefaults.timeoutMs,
          breaker: options.breaker ?? collectionDefaults.breaker,
          metrics: metrics?.metrics,
          log,
        });
  const frontEnd = await startFrontEnd(core, upstreams, {
    host: options.host,
    port: options.port,
    dataDir: options.dataDir,
    threads,
    edgeLoad,
    searches: role !== 'collect',
    cors: options.cors,
    secureCookies: options.secureCookies === true,
    signinWait: options.signinWait,
    streamIdleTimeoutSeconds: options.streamIdleTimeoutSeconds,
    metrics: metrics?.metrics,
    log,
    onFatal:
      options.onFatal ??
      ((error) => {
        throw error;
      }),
  });
  options.onListening?.(frontEnd.port);
  core.health.clear(startingComponent);
  log.info({ port: frontEnd.port, upstream: upstreams.emulatorUrl ?? 'real', resources: core.store.count() }, 'service started');

  return {
    port: frontEnd.port,
    accounts: core.accounts,
    emulator: upstreams.emulator,
    health: core.health,
    metricsPort: metrics?.port,
    platformStatus: upstreams.platformStatus,
    // docs/architecture.md#stopping: owed answers are written while the collections out
    // finish or are given back, so that a restart collects them at once.
    async stop() {
      const stopping = performance.now();
      log.info('stopping');
      // The collector first: its due scheduler starts nothing new while the front end stops.
      await Promise.all([collector?.stop(), frontEnd.stop()]);
      await core.stop();
      await upstreams.stop();
      metrics?.stop();
      log.info({ ms: Math.round(performance.now() - stopping) }, 'stopped');
    },
  };
}
