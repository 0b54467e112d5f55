// What an edge (the HTTP front end on one thread) takes from the node, as one EdgeLink: the node's
// own objects (src/node/frontEnd.ts) or the same lent to an edge thread (src/threads/portLink.ts).
import { Admissions } from '../access/admission.js';
import type { AccountTable } from '../access/accountTable.js';
import { Authenticator } from '../access/authenticator.js';
import type { AuthVersionBoard } from '../access/authVersionBoard.js';
import { limits } from '../config.js';
import type { Health, ProblemReporter } from '../health.js';
import { type ReadinessCheck, storageCheck } from '../http/readiness.js';
import { requestIdSource } from '../http/requestIds.js';
import { type HttpServer, startHttpServer } from '../http/server.js';
import type { Logger } from '../log.js';
import type { EdgeCounts } from '../metrics/edgeMetrics.js';
import type { RequestMetrics } from '../metrics/metrics.js';
import type { PlatformStatusSource } from '../operations/platformStatus.js';
import { ConnectionCounts } from '../push/connectionCounts.js';
import { StreamTickets } from '../push/tickets.js';
import type { ResourceDemand } from '../resources/demand.js';
import type { ViewSource } from '../resources/view.js';
import type { QuotaLedger } from '../seams/quotaLedger/quotaLedger.js';
import type { ViewChanges } from '../seams/viewChanges/viewChanges.js';
import type { DashboardWrites } from '../seams/webRecords/webStore.js';
import type { AccountStore, AccountsCatchUp } from '../store/accountStore.js';
import type { DatapointSeries } from '../store/datapointSeries.js';
import type { Databases } from '../store/environment.js';
import type { PasswordHashing } from '../web/passwordHasher.js';
import { webPages } from '../web/webPages.js';
import type { EdgeStreamState, FrontEndChoices } from './edgeMessages.js';
import { reportRefusals } from '../store/storageSpace.js';

/** What an edge takes from the node. */
export interface EdgeLink {
  /** Committed views, where answers are read. */
  views: ViewSource;
  /** Told every view committed from now on, in commit order per resource (docs/push.md#where-changes-come-from). */
  changes: ViewChanges;
  /** Told which resources answers found unknown or due a refresh; the resource thread acts on it. */
  demand: ResourceDemand;
  history: DatapointSeries;
  ledger: QuotaLedger;
  /** The cluster's rate windows (docs/design/cluster.md#rate-limit-across-nodes); none alone. */
  rateLedger: QuotaLedger | undefined;
  /** Where the dashboard writes: the node's choice (docs/dashboard.md#in-a-cluster), lent to edge threads. */
  dashboard: DashboardWrites;
  /** The node's one password hasher, for every edge (docs/dashboard.md#password-hashing). */
  passwords: PasswordHashing;
  /** In a cluster: how a token unknown here is looked for in the cluster before it is refused (docs/design/cluster.md#a-token-new-to-a-node). */
  accountsCatchUp: AccountsCatchUp | undefined;
  /** The node's problems, as /readyz shows them (docs/operations-endpoints.md#readiness-with-threads). */
  readiness: ReadinessCheck;
  /** Where the edge reports problems of its own background work: the node's Health. */
  problems: ProblemReporter;
  platformStatus: PlatformStatusSource;
  /** Told of every answer and refusal; nothing is counted when absent. */
  metrics: RequestMetrics | undefined;
}

/** The node's own link, with what lending it to edge threads takes besides. */
export interface NodeLink extends EdgeLink {
  health: Health;
  /** Adds up what edge threads counted, and counts those replaced. */
  metrics: (RequestMetrics & { addEdgeCounts(counts: EdgeCounts): void; edgeThreadReplaced(): void }) | undefined;
  /**
   * Whether edge threads call `ledger` and `rateLedger` through this thread (a cluster's: a NATS
   * connection cannot cross threads) or open the data directory's ledger themselves.
   */
  lendLedger: boolean;
}

/** What every edge of a node has alike, on whichever thread. */
export interface CommonEdgeSettings extends FrontEndChoices {
  host: string;
  port: number;
  /** Shared by every edge, so that a revocation one edge saw is in force on all of them. */
  authVersions: AuthVersionBoard;
  accountTable: AccountTable;
  stream: EdgeStreamState;
  log: Logger;
  /** How a throttled sign-in waits (docs/dashboard.md#rate-limits); a real timer when undefined. */
  signinWait: SigninWait | undefined;
}

/** What an edge has on its own thread. */
export interface EdgeSettings extends CommonEdgeSettings {
  /** This thread's handle on the data directory. */
  dbs: Databases;
  accounts: AccountStore;
  admissions: Admissions;
  /** False on a collect node (docs/cluster.md#node-roles). */
  searches?: boolean;
}

export type SigninWait = (ms: number) => Promise<void>;

/** Admissions of one thread against the shared account table (docs/guarantees.md#quota-and-rate-across-threads). */
export function admissionsOn(link: EdgeLink, table: AccountTable, log: Logger): Admissions {
  return new Admissions({ table, ledger: link.ledger, rateLedger: link.rateLedger, log, now: Date.now });
}

/** Starts the HTTP front end on `link`; its close also ends the edge's authenticator. */
export async function serveEdge(link: EdgeLink, edge: EdgeSettings): Promise<HttpServer> {
  const { log } = edge;
  // Commits this edge's store refuses (its quota reservations) reach the server's readiness and log.
  reportRefusals(edge.dbs.storage, link.problems);
  const authenticator = new Authenticator(edge.accounts, log, edge.authVersions, link.problems, link.accountsCatchUp);
  const server = await startHttpServer(
    edge.host,
    edge.port,
    {
      authenticator,
      admissions: edge.admissions,
      views: link.views,
      demand: link.demand,
      log,
      nextRequestId: requestIdSource(),
      now: Date.now,
    },
    {
      cors: edge.cors,
      readiness: [storageCheck(edge.dbs.root), link.readiness],
      metrics: link.metrics,
      pages: webPages({
        dbs: edge.dbs,
        log,
        secureCookies: edge.secureCookies,
        sleep: edge.signinWait,
        platforms: link.platformStatus,
        writes: link.dashboard,
        hasher: link.passwords,
      }),
      history: link.history,
      searches: edge.searches,
      stream: {
        changes: link.changes,
        tickets: new StreamTickets(edge.stream.tickets),
        connections: new ConnectionCounts(edge.accountTable, edge.stream.connections, limits.push.maxConnectionsPerAccount),
        idleTimeoutSeconds: edge.streamIdleTimeoutSeconds,
      },
    },
  );
  return { ...server, close: () => server.close().finally(() => authenticator.close()) };
}
