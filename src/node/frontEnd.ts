// The front end (docs/architecture.md#the-assemblies): HTTP, the dashboard and push streams,
// answered on this thread beside the resource work, or by N edge threads that hear the core
// over MessagePorts (src/threads/edges.ts). Which one is chosen here, once.
import { Admissions } from '../access/admission.js';
import { AccountTable } from '../access/accountTable.js';
import { Authenticator } from '../access/authenticator.js';
import { InHandRecorder } from '../access/inHandRecorder.js';
import { limits } from '../config.js';
import type { CorsOrigins } from '../http/cors.js';
import { healthCheck, storageCheck } from '../http/readiness.js';
import { requestIdSource } from '../http/requestIds.js';
import { startHttpServer } from '../http/server.js';
import type { Logger } from '../log.js';
import type { PrometheusMetrics } from '../metrics/prometheusMetrics.js';
import { ConnectionCounts, createConnectionCountsBuffer } from '../push/connectionCounts.js';
import { createTicketState, StreamTickets } from '../push/tickets.js';
import { InProcessViewChanges } from '../seams/viewChanges/viewChanges.js';
import { InHandUnits } from '../store/inHandUnits.js';
import type { EdgeLoadBoard } from '../threads/edgeLoad.js';
import { startEdges } from '../threads/edges.js';
import { webPages } from '../web/webPages.js';
import type { NodeCore } from './nodeCore.js';
import type { Upstreams } from './upstreams.js';

export interface FrontEndOptions {
  host: string;
  port: number;
  dataDir: string;
  /** Edge threads answering searches; 0: this thread answers them. */
  threads: number;
  /** With edge threads: where each edge writes how busy it is (docs/architecture.md#searches-first). */
  edgeLoad: EdgeLoadBoard | undefined;
  /** False on a collect node: it answers no searches (docs/cluster.md#node-roles). */
  searches: boolean;
  cors: CorsOrigins | undefined;
  secureCookies: boolean;
  signinWait: ((ms: number) => Promise<void>) | undefined;
  streamIdleTimeoutSeconds: number | undefined;
  metrics: PrometheusMetrics | undefined;
  log: Logger;
}

export interface FrontEnd {
  port: number;
  /** Stops admitting, then gives back the quota reserved and not spent. */
  stop(): Promise<void>;
}

export async function startFrontEnd(core: NodeCore, upstreams: Upstreams, options: FrontEndOptions): Promise<FrontEnd> {
  const { seams } = core;
  const { log } = options;
  const accountTable = AccountTable.create();
  // Every thread admits against the one shared table; this thread's Admissions gives back what is
  // left at the stop, and admits too when this thread serves.
  const admissions = new Admissions({ table: accountTable, ledger: seams.ledger, rateLedger: seams.rateLedger, log, now: Date.now });
  // Displays show requests counted: the ledger less what this server holds in hand (docs/operations.md#accounts).
  const inHand = new InHandRecorder(accountTable, new InHandUnits(core.dbs), log);
  inHand.start(limits.inHandRecordMs);
  const streamState = { tickets: createTicketState(), connections: createConnectionCountsBuffer(accountTable) };
  const http =
    options.threads > 0
      ? await startEdges({
          threads: options.threads,
          host: options.host,
          port: options.port,
          dataDir: options.dataDir,
          cors: options.cors,
          secureCookies: options.secureCookies,
          accountTable,
          authVersions: core.authVersions,
          ledger: seams.remoteLedger ? seams.ledger : undefined,
          rateLedger: seams.rateLedger,
          dashboard: seams.dashboard,
          store: core.store,
          edgeLoad: options.edgeLoad!,
          demand: core.resourceHost,
          log,
          logLevel: log.level,
          health: core.health,
          metrics: options.metrics,
          stream: streamState,
          platformStatus: upstreams.platformStatus,
        })
      : await startOneThread();
  return {
    port: http.port,
    // docs/guarantees.md#quota-and-rate-across-threads: once no thread admits any more.
    stop: () =>
      http
        .close()
        .then(() => admissions.returnUnspent())
        .then(() => inHand.stop()),
  };

  // One server thread: it authenticates itself, with an authenticator that lives as long as it,
  // and hears its store's commits for the push streams (docs/push.md#where-changes-come-from).
  async function startOneThread() {
    const viewChanges = new InProcessViewChanges();
    core.store.onCommitted((key, view) => viewChanges.changed(key, view));
    const authenticator = new Authenticator(core.accounts, log, core.authVersions, core.health);
    const pages = webPages({
      dbs: core.dbs,
      log,
      secureCookies: options.secureCookies,
      sleep: options.signinWait,
      platforms: upstreams.platformStatus,
      writes: seams.dashboard,
    });
    const server = await startHttpServer(
      options.host,
      options.port,
      {
        authenticator,
        admissions,
        views: core.store,
        demand: core.resourceHost,
        log,
        nextRequestId: requestIdSource(),
        now: Date.now,
      },
      {
        cors: options.cors,
        readiness: [storageCheck(core.dbs.root), healthCheck(core.health)],
        metrics: options.metrics,
        pages,
        history: core.store.series,
        searches: options.searches,
        stream: {
          changes: viewChanges,
          tickets: new StreamTickets(streamState.tickets),
          connections: new ConnectionCounts(accountTable, streamState.connections, limits.push.maxConnectionsPerAccount),
          idleTimeoutSeconds: options.streamIdleTimeoutSeconds,
        },
      },
    );
    return { ...server, close: () => server.close().finally(() => authenticator.close()) };
  }
}
