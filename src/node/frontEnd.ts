// The front end (docs/architecture.md#the-assemblies): HTTP, the dashboard and push streams,
// answered on this thread beside the resource work, or by N edge threads that hear the core
// over MessagePorts (src/threads/edges.ts), each on the same link (src/threads/edgeLink.ts).
import { AccountTable } from '../access/accountTable.js';
import { ReservedUnitsRecorder } from '../access/reservedUnitsRecorder.js';
import { limits, webLimits } from '../config.js';
import { healthCheck } from '../http/readiness.js';
import type { Logger } from '../log.js';
import { CommitRefused } from '../store/storageSpace.js';
import type { PrometheusMetrics } from '../metrics/prometheusMetrics.js';
import { createConnectionCountsBuffer } from '../push/connectionCounts.js';
import { createTicketState } from '../push/tickets.js';
import { InProcessViewChanges } from '../seams/viewChanges/viewChanges.js';
import { admissionsOn, type CommonEdgeSettings, type NodeLink, type SigninWait, serveEdge } from '../threads/edgeLink.js';
import type { FrontEndChoices } from '../threads/edgeMessages.js';
import type { EdgeLoadBoard } from '../threads/edgeLoad.js';
import { startEdges } from '../threads/edges.js';
import { PasswordHasher, type PasswordHashing } from '../web/passwordHasher.js';
import type { NodeCore } from './nodeCore.js';
import type { Upstreams } from './upstreams.js';

export interface FrontEndOptions extends FrontEndChoices {
  host: string;
  port: number;
  dataDir: string;
  /** Edge threads answering searches; 0: this thread answers them. */
  threads: number;
  /** With edge threads: where each edge writes how busy it is (docs/architecture.md#searches-first). */
  edgeLoad: EdgeLoadBoard | undefined;
  /** False on a collect node: it answers no searches (docs/cluster.md#node-roles). */
  searches: boolean;
  signinWait: SigninWait | undefined;
  metrics: PrometheusMetrics | undefined;
  log: Logger;
  /** Told when edge threads keep ending (docs/guarantees.md#restart-storms): the node must stop. */
  onFatal(error: Error): void;
}

export interface FrontEnd {
  port: number;
  /** Stops admitting, then gives back the quota reserved and not spent. */
  stop(): Promise<void>;
}

export async function startFrontEnd(core: NodeCore, upstreams: Upstreams, options: FrontEndOptions): Promise<FrontEnd> {
  const { log } = options;
  // docs/dashboard.md#password-hashing: one per node, lent to every edge thread.
  const hasher = new PasswordHasher({ ...webLimits.hashing, maxmem: webLimits.scrypt.maxmem });
  const link = nodeLink(core, upstreams, options.metrics, hasher);
  const accountTable = AccountTable.create();
  // Every thread admits against the one shared table; this thread's Admissions gives back what is
  // left at the stop, and admits too when this thread serves.
  const admissions = admissionsOn(link, accountTable, log);
  // Displays show requests counted: the ledger less what this server holds in hand (docs/operations.md#accounts).
  const unitsRecorder = new ReservedUnitsRecorder(accountTable, core.seams.reservedUnits, log);
  unitsRecorder.start(limits.reservedUnitsRecordMs);
  const stream = { tickets: createTicketState(), connections: createConnectionCountsBuffer(accountTable) };
  const settings: CommonEdgeSettings = {
    host: options.host,
    port: options.port,
    cors: options.cors,
    secureCookies: options.secureCookies,
    streamIdleTimeoutSeconds: options.streamIdleTimeoutSeconds,
    signinWait: options.signinWait,
    accountTable,
    authVersions: core.authVersions,
    stream,
    log,
  };
  const http =
    options.threads > 0
      ? await startEdges(link, {
          ...settings,
          threads: options.threads,
          dataDir: options.dataDir,
          edgeLoad: options.edgeLoad!,
          onRestartStorm: options.onFatal,
        })
      : await serveEdge(link, {
          ...settings,
          dbs: core.dbs,
          accounts: core.accounts,
          admissions,
          searches: options.searches,
        });
  return {
    port: http.port,
    // docs/guarantees.md#quota-and-rate-across-threads: once no thread admits any more.
    stop: () =>
      http
        .close()
        .then(() => admissions.returnUnspent())
        .catch((error: unknown) => {
          // A full store keeps them counted, as a kill -9 would, within the same bound (docs/storage.md#a-full-disk).
          if (!(error instanceof CommitRefused)) throw error;
          log.warn({ reason: error.reason }, 'unspent quota not given back: the data store cannot be written; it stays counted');
        })
        .then(() => unitsRecorder.stop())
        .then(() => hasher.close()),
  };
}

/** The node's own objects as the link every edge takes, on this thread or lent to its own. */
function nodeLink(core: NodeCore, upstreams: Upstreams, metrics: PrometheusMetrics | undefined, passwords: PasswordHashing): NodeLink {
  // docs/push.md#where-changes-come-from: every view the store writes is a change.
  const changes = new InProcessViewChanges();
  core.store.onCommitted((key, view) => changes.changed(key, view));
  const { seams } = core;
  return {
    views: core.store,
    changes,
    demand: core.resourceHost,
    history: core.store.series,
    ledger: seams.ledger,
    rateLedger: seams.rateLedger,
    dashboard: seams.dashboard,
    passwords,
    accountsCatchUp: seams.accountsCatchUp,
    readiness: healthCheck(core.health),
    problems: core.health,
    health: core.health,
    platformStatus: upstreams.platformStatus,
    metrics,
    lendLedger: seams.remoteLedger,
  };
}
