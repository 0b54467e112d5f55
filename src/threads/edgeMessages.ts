// Every message between the node's thread and its edge threads, typed once (src/threads/edges.ts).
import type { HistoryPolicy } from '../config.js';
import type { MessagePort } from 'node:worker_threads';
import type { CorsOrigins } from '../http/cors.js';
import type { ReadinessProblem } from '../http/readiness.js';
import type { EdgeCounts } from '../metrics/edgeMetrics.js';
import type { TicketState } from '../push/tickets.js';
import type { PlatformStatusSnapshot } from '../operations/platformStatus.js';
import type { DashboardPorts } from '../seams/webRecords/portDashboardWrites.js';

/** What the operator chose of the front end: alike on every edge, and cloned into each edge thread. */
export interface FrontEndChoices {
  /** Origins browsers may call the API from (`--cors`, docs/http.md#cors); none when undefined. */
  cors: CorsOrigins | undefined;
  /** Mark the dashboard's session cookie Secure (`--secure-cookies`, docs/dashboard.md#cookies). */
  secureCookies: boolean;
  /**
   * Seconds a stream connection may stay silent before it is pinged and then closed
   * (docs/push.md#limits); `limits.push.idleTimeoutSeconds` when undefined.
   */
  streamIdleTimeoutSeconds: number | undefined;
}

/** An edge thread's workerData. */
export interface EdgeSetup extends FrontEndChoices {
  index: number;
  dataDir: string;
  host: string;
  port: number;
  /** The shared account table (src/access/accountTable.ts). */
  accountTable: SharedArrayBuffer;
  /** The newest accounts-and-tokens version any edge has seen (src/access/authVersionBoard.ts). */
  authVersions: SharedArrayBuffer;
  /** How busy each edge is, read by the resource thread's pace (src/threads/edgeLoad.ts). */
  edgeLoad: SharedArrayBuffer;
  /** The node's link, lent (src/threads/portLink.ts). */
  link: LinkPorts;
  logLevel: string;
  /** Where the resource thread lends the service's own wait of a throttled sign-in; a timer when undefined. */
  signinWait: MessagePort | undefined;
  /** What every edge's resource stream shares (docs/push.md#threads). */
  stream: EdgeStreamState;
}

/** The edge's ends of a lent link, and what it needs to open the rest from the data directory. */
export interface LinkPorts {
  /** Committed views, from the resource thread, as PostedViews. */
  views: MessagePort;
  /** Resources wanted by searches, to the resource thread, as DemandMessages. */
  demand: MessagePort;
  /** The resource thread's quota ledger, when it is not the edge's to open (src/seams/quotaLedger/portLedger.ts). */
  ledger: MessagePort | undefined;
  /** The resource thread's ledger of rate windows, in a cluster only (docs/design/cluster.md#rate-limit-across-nodes). */
  rateLedger: MessagePort | undefined;
  /** The resource thread's dashboard writes, wherever they go (src/seams/webRecords/portDashboardWrites.ts). */
  dashboard: DashboardPorts;
  /** The node's password hasher (src/web/passwordHasher.ts), lent (src/seams/portCalls.ts). */
  passwords: MessagePort;
  /** The resource thread's catch-up with the cluster's accounts and tokens, in a cluster only (src/seams/portCalls.ts). */
  accountsCatchUp: MessagePort | undefined;
  /** Edges read history from the data directory themselves, under this retention (docs/history.md#threads). */
  history: HistoryPolicy;
  /** Whether the server serves metrics: the edge then counts answers and posts them. */
  metrics: boolean;
}

/** Stream tickets (src/push/tickets.ts) and per-account stream connections (src/push/connectionCounts.ts). */
export interface EdgeStreamState {
  tickets: TicketState;
  connections: SharedArrayBuffer;
}

/** [key, entryEnd, refreshAfter]: a committed view as posted to the edges. */
export type PostedView = [key: string, entryEnd: string, refreshAfter: number];
/** The views of one message, flat (one PostedView is a batch of one): [key, entryEnd, refreshAfter, key, entryEnd, refreshAfter, ...]. */
export type PostedViews = Array<string | number>;

/** Keys a search found unknown or due a refresh, and when (ResourceDemand.wanted). */
export type DemandMessage = [keys: readonly string[], at: number];

/** From the resource thread to an edge. */
export type ToEdge =
  /** Close the listen socket, keep answering: the first step of a stop (src/threads/edges.ts). */
  | { type: 'stopListening' }
  | { type: 'stop' }
  /** A replacement listens on the port now: stop as on 'stop', answering meanwhile (docs/guarantees.md#an-edge-thread-that-ends). */
  | { type: 'handOver' }
  /** The resource thread's health problems, each time they change (publishHealth, src/threads/portLink.ts). */
  | { type: 'health'; problems: ReadinessProblem[] }
  /** What each platform's collection is doing, every `limits.platformStatus.postMs` (src/operations/platformStatus.ts). */
  | { type: 'platformStatus'; snapshot: PlatformStatusSnapshot };

/** From an edge to the resource thread. */
export type FromEdge =
  | { type: 'listening'; port: number }
  | { type: 'failed'; message: string }
  /** The listen socket is closed. */
  | { type: 'notListening' }
  | { type: 'stopped' }
  /** The edge cannot go on (an error nothing handled, its heap near the limit): start another, then hand it over. */
  | { type: 'ending'; reason: string; stack: string | undefined }
  /** Answers and refusals counted since the edge's previous post (src/metrics/edgeMetrics.ts). */
  | { type: 'metrics'; counts: EdgeCounts }
  /** A problem of the edge's own background work for the resource thread's Health; `message` null clears it. */
  | { type: 'problem'; component: string; message: string | null };
