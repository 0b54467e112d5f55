// The edge threads of one server (docs/guarantees.md#threads): N worker threads, each a
// uWebSockets.js app on the same port (uWS binds with SO_REUSEPORT, so the kernel spreads
// connections over them). A port asked as 0 ("any free one") is chosen here first: uWS binds
// port 0 without SO_REUSEPORT, so threads could not share the port the kernel picked. Keeping
// other processes off the port is the port guard's job, done once before any thread binds.
import { createServer } from 'node:net';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { AccountTable } from '../access/accountTable.js';
import type { AuthVersionBoard } from '../access/authVersionBoard.js';
import type { Health } from '../health.js';
import type { CorsOrigins } from '../http/cors.js';
import type { Logger } from '../log.js';
import { limits } from '../config.js';
import type { EdgeCounts } from '../metrics/edgeMetrics.js';
import type { PlatformStatusSource } from '../operations/platformStatus.js';
import type { ResourceDemand } from '../resources/demand.js';
import type { QuotaLedger } from '../seams/quotaLedger/quotaLedger.js';
import type { ResourceStore } from '../store/resourceStore.js';
import { receiveDemand } from './demandMessenger.js';
import type { EdgeLoadBoard } from './edgeLoad.js';
import type { EdgeSetup, EdgeStreamState, FromEdge, ToEdge } from './edgeMessages.js';
import { lendLedger } from '../seams/quotaLedger/portLedger.js';
import type { DashboardWrites } from '../seams/webRecords/webStore.js';
import { lendDashboardWrites } from '../seams/webRecords/portDashboardWrites.js';
import { publishHealth } from './publishedHealth.js';
import { publishViews } from './publishingStore.js';

export interface EdgeOptions {
  threads: number;
  host: string;
  port: number;
  dataDir: string;
  cors: CorsOrigins | undefined;
  /** Mark the dashboard's session cookie Secure (docs/dashboard.md#cookies). */
  secureCookies: boolean;
  accountTable: AccountTable;
  /** Shared by every edge, so that a revocation one edge saw is in force on all of them. */
  authVersions: AuthVersionBoard;
  store: ResourceStore;
  /** Where each edge writes how busy it is (one slot per thread). */
  edgeLoad: EdgeLoadBoard;
  demand: ResourceDemand;
  log: Logger;
  logLevel: string;
  /** The resource thread's health, told to every edge for its /readyz. */
  health: Health;
  /**
   * A ledger the edges cannot open themselves (the cluster's, on this thread's NATS connection):
   * lent to each over a MessagePort. Absent: each edge opens the LMDB ledger of the data directory.
   */
  ledger?: QuotaLedger | undefined;
  /** The cluster's ledger of rate windows, lent likewise (docs/design/cluster-mechanics.md#rate-limit-across-nodes); none alone. */
  rateLedger?: QuotaLedger | undefined;
  /** Where the dashboard writes when not the data directory's LMDB (the cluster's): lent likewise. */
  dashboard?: DashboardWrites | undefined;
  /** Adds up what the edges counted; the edges count nothing when absent. */
  metrics?: { addEdgeCounts(counts: EdgeCounts): void } | undefined;
  stream: EdgeStreamState;
  /** Posted to every edge every `limits.platformStatus.postMs`, so that any edge can show it. */
  platformStatus: PlatformStatusSource;
}

export interface RunningEdges {
  port: number;
  /** Every edge stops accepting, writes what it owes, and ends. */
  close(): Promise<void>;
}

interface Edge {
  worker: Worker;
  next(): Promise<FromEdge>;
}

export async function startEdges(options: EdgeOptions): Promise<RunningEdges> {
  const edges: Edge[] = [];
  const port = options.port === 0 ? await freePort(options.host) : options.port;
  try {
    for (let index = 0; index < options.threads; index++) {
      const edge = startEdge(options, index, port);
      edges.push(edge);
      const started = await edge.next();
      if (started.type !== 'listening')
        throw new Error(`edge thread ${index}: ${started.type === 'failed' ? started.message : started.type}`);
    }
  } catch (error) {
    // The edge that failed ends by itself; the others stop as on SIGTERM. Not terminate():
    // a thread ended from outside with uWS loaded aborts the whole process.
    await stopAll(edges.slice(0, -1));
    throw error;
  }
  const postStatus = () => {
    const snapshot = options.platformStatus.snapshot();
    if (!snapshot) return;
    const message: ToEdge = { type: 'platformStatus', snapshot };
    for (const edge of edges) edge.worker.postMessage(message);
  };
  postStatus();
  const posting = setInterval(postStatus, limits.platformStatus.postMs);
  posting.unref();
  return {
    port,
    close: () => {
      clearInterval(posting);
      return stopAll(edges);
    },
  };
}

async function stopAll(edges: Edge[]): Promise<void> {
  await Promise.all(
    edges.map(async (edge) => {
      const stopped = edge.next();
      const stop: ToEdge = { type: 'stop' };
      edge.worker.postMessage(stop);
      await stopped;
    }),
  );
}

/** A port free right now on `host`, as the kernel picks one. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ host, port: 0, exclusive: true }, () => {
      const address = probe.address();
      const port = address !== null && typeof address === 'object' ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function startEdge(options: EdgeOptions, index: number, port: number): Edge {
  const views = new MessageChannel();
  const demand = new MessageChannel();
  const ledger = options.ledger ? new MessageChannel() : undefined;
  const rateLedger = options.rateLedger ? new MessageChannel() : undefined;
  const dashboard = options.dashboard ? lendDashboardWrites(options.dashboard) : undefined;
  const setup: EdgeSetup = {
    index,
    dataDir: options.dataDir,
    host: options.host,
    port,
    accountTable: options.accountTable.buffer,
    authVersions: options.authVersions.buffer,
    edgeLoad: options.edgeLoad.buffer,
    views: views.port2,
    demand: demand.port2,
    ledger: ledger?.port2,
    rateLedger: rateLedger?.port2,
    dashboard,
    logLevel: options.logLevel,
    cors: options.cors,
    secureCookies: options.secureCookies,
    history: options.store.series.policy,
    metrics: options.metrics !== undefined,
    stream: options.stream,
  };
  const worker = new Worker(new URL('./edgeThread.js', import.meta.url), {
    workerData: setup,
    transferList: [
      views.port2,
      demand.port2,
      ...(ledger ? [ledger.port2] : []),
      ...(rateLedger ? [rateLedger.port2] : []),
      ...(dashboard ? [dashboard.records, dashboard.accounts] : []),
    ],
  });
  if (ledger && options.ledger) lendLedger(ledger.port1, options.ledger);
  if (rateLedger && options.rateLedger) lendLedger(rateLedger.port1, options.rateLedger);
  publishViews(options.store, views.port1);
  receiveDemand(demand.port1, options.demand);
  // Messages and the thread's end, in order, for whoever waits on the next one.
  const inbox: FromEdge[] = [];
  const waiting: Array<(message: FromEdge) => void> = [];
  const deliver = (message: FromEdge) => {
    const waiter = waiting.shift();
    if (waiter) waiter(message);
    else inbox.push(message);
  };
  publishHealth(options.health, worker);
  worker.on('message', (message: FromEdge) => {
    if (message.type === 'metrics') options.metrics?.addEdgeCounts(message.counts);
    else if (message.type === 'problem') {
      if (message.message === null) options.health.clear(message.component);
      else options.health.report(message.component, message.message);
    } else deliver(message);
  });
  worker.on('error', (error) => {
    options.log.error({ err: error, thread: index }, 'edge thread failed');
    deliver({ type: 'failed', message: error.message });
  });
  worker.on('exit', (code) => deliver(code === 0 ? { type: 'stopped' } : { type: 'failed', message: `exited with ${code}` }));
  return {
    worker,
    next: () => {
      const message = inbox.shift();
      return message ? Promise.resolve(message) : new Promise((resolve) => waiting.push(resolve));
    },
  };
}
