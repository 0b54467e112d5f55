// An edge thread (docs/guarantees.md#threads): a uWebSockets.js app on the server's port
// that answers searches from its own handle on the shared LMDB environment. It writes only
// usage (quota reservations) and tokens' last-used times; resources are the resource thread's.
import { DatapointSeries } from '../store/datapointSeries.js';
import { parentPort, workerData } from 'node:worker_threads';
import { AccountTable } from '../access/accountTable.js';
import { AuthVersionBoard } from '../access/authVersionBoard.js';
import { Admissions } from '../access/admission.js';
import { Authenticator } from '../access/authenticator.js';
import { limits } from '../config.js';
import { type ReadinessProblem, storageCheck } from '../http/readiness.js';
import { startHttpServer } from '../http/server.js';
import { requestIdSource } from '../http/requestIds.js';
import { createLogger, logFormatNamed } from '../log.js';
import { EdgeMetrics } from '../metrics/edgeMetrics.js';
import { PostedPlatformStatus } from '../operations/platformStatus.js';
import { AccountStore } from '../store/accountStore.js';
import { openDatabases } from '../store/environment.js';
import { UsageStore } from '../seams/quotaLedger/usageStore.js';
import { ConnectionCounts } from '../push/connectionCounts.js';
import { StreamTickets } from '../push/tickets.js';
import { InProcessViewChanges } from '../seams/viewChanges/viewChanges.js';
import { DemandMessenger } from './demandMessenger.js';
import { EdgeLoadBoard, publishEdgeLoad } from './edgeLoad.js';
import type { EdgeSetup, FromEdge, ToEdge } from './edgeMessages.js';
import { EdgeViews } from './edgeViews.js';
import { webPages } from '../web/webPages.js';
import { borrowLedger } from '../seams/quotaLedger/portLedger.js';
import { borrowDashboardWrites } from '../seams/webRecords/portDashboardWrites.js';

const setup: EdgeSetup = workerData;
const control = parentPort!;
const tell = (message: FromEdge) => control.postMessage(message);
// The format the command line checked (LOG_FORMAT), read from this thread's copy of the environment.
const log = createLogger(setup.logLevel, logFormatNamed(process.env.LOG_FORMAT));

try {
  const dbs = openDatabases(setup.dataDir, { create: false });
  // Problems of the edge's own background work go to the resource thread's Health, which every edge's /readyz reads.
  const problems = {
    report: (component: string, message: string) => tell({ type: 'problem', component, message }),
    clear: (component: string) => tell({ type: 'problem', component, message: null }),
  };
  const authenticator = new Authenticator(new AccountStore(dbs), log, new AuthVersionBoard(setup.authVersions), problems);
  // docs/push.md#where-changes-come-from: every view posted to this edge is a change its streams hear.
  const viewChanges = new InProcessViewChanges();
  const views = new EdgeViews(dbs, setup.views, viewChanges);
  const accountTable = new AccountTable(setup.accountTable);
  // docs/operations-endpoints.md#readiness-with-threads: as the resource thread last told.
  let resourceProblems: readonly ReadinessProblem[] = [];
  const metrics = setup.metrics ? new EdgeMetrics() : undefined;
  // docs/operations.md#platform-status: as the resource thread last posted it.
  const platformStatus = new PostedPlatformStatus();
  const postMetrics = () => {
    const counts = metrics?.drain();
    if (counts) tell({ type: 'metrics', counts });
  };
  const posting = metrics ? setInterval(postMetrics, limits.edgeMetricsPostMs) : undefined;
  const http = await startHttpServer(
    setup.host,
    setup.port,
    {
      authenticator,
      admissions: new Admissions({
        table: accountTable,
        ledger: setup.ledger ? borrowLedger(setup.ledger) : new UsageStore(dbs),
        rateLedger: setup.rateLedger ? borrowLedger(setup.rateLedger) : undefined,
        log,
        now: Date.now,
      }),
      views,
      demand: new DemandMessenger(setup.demand),
      log,
      nextRequestId: requestIdSource(),
      now: Date.now,
    },
    {
      cors: setup.cors,
      readiness: [storageCheck(dbs.root), () => resourceProblems],
      metrics,
      history: new DatapointSeries(dbs, setup.history),
      pages: webPages({
        dbs,
        log,
        secureCookies: setup.secureCookies,
        platforms: platformStatus,
        writes: setup.dashboard ? borrowDashboardWrites(setup.dashboard) : undefined,
      }),
      stream: {
        changes: viewChanges,
        tickets: new StreamTickets(setup.stream.tickets),
        connections: new ConnectionCounts(accountTable, setup.stream.connections, limits.push.maxConnectionsPerAccount),
      },
    },
  );
  control.on('message', (message: ToEdge) => {
    if (message.type === 'health') {
      resourceProblems = message.problems;
      return;
    }
    if (message.type === 'platformStatus') {
      platformStatus.take(message.snapshot);
      return;
    }
    // Owed answers are written, then keep-alive clients still sending get 503 with
    // Connection: close for a moment instead of a reset when the thread ends.
    void http
      .close()
      .then(() => new Promise((resolve) => setTimeout(resolve, limits.keepAliveLingerMs)))
      .then(async () => {
        http.closeConnections();
        clearInterval(posting);
        stopLoad();
        postMetrics();
        authenticator.close();
        views.close();
        setup.demand.close();
        await dbs.root.close();
        tell({ type: 'stopped' });
        process.exit(0);
      });
  });
  // docs/architecture.md#searches-first: the resource thread paces its work by this.
  const stopLoad = publishEdgeLoad(new EdgeLoadBoard(setup.edgeLoad), setup.index, limits.edgeLoadSampleMs);
  tell({ type: 'listening', port: http.port });
} catch (error) {
  tell({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}
