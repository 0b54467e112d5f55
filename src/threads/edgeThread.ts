// An edge thread (docs/guarantees.md#threads): serveEdge on the node's link borrowed over ports,
// reading the shared LMDB itself; it writes only usage and tokens' last-used times.
import { parentPort, workerData } from 'node:worker_threads';
import { AccountTable } from '../access/accountTable.js';
import { AuthVersionBoard } from '../access/authVersionBoard.js';
import { limits } from '../config.js';
import { createLogger, logFormatNamed } from '../log.js';
import { AccountStore } from '../store/accountStore.js';
import { openDatabases } from '../store/environment.js';
import { EdgeLoadBoard, publishEdgeLoad } from './edgeLoad.js';
import { admissionsOn, type SigninWait, serveEdge } from './edgeLink.js';
import { borrowCalls } from '../seams/portCalls.js';
import type { EdgeSetup, FromEdge, ToEdge } from './edgeMessages.js';
import { borrowLink } from './portLink.js';

const setup: EdgeSetup = workerData;
const control = parentPort!;
const tell = (message: FromEdge) => control.postMessage(message);
// The format the command line checked (LOG_FORMAT), read from this thread's copy of the environment.
const log = createLogger(setup.logLevel, logFormatNamed(process.env.LOG_FORMAT));

try {
  const dbs = openDatabases(setup.dataDir, { create: false });
  const link = borrowLink(setup.link, dbs, control);
  const accountTable = new AccountTable(setup.accountTable);
  const http = await serveEdge(link, {
    host: setup.host,
    port: setup.port,
    dbs,
    accounts: new AccountStore(dbs),
    authVersions: new AuthVersionBoard(setup.authVersions),
    accountTable,
    admissions: admissionsOn(link, accountTable, log),
    stream: setup.stream,
    log,
    cors: setup.cors,
    secureCookies: setup.secureCookies,
    streamIdleTimeoutSeconds: setup.streamIdleTimeoutSeconds,
    signinWait: setup.signinWait && borrowCalls<{ wait: SigninWait }, 'wait'>(setup.signinWait, ['wait']).wait,
  });
  control.on('message', (message: ToEdge) => {
    if (message.type === 'stopListening') {
      http.stopListening();
      tell({ type: 'notListening' });
      return;
    }
    if (message.type !== 'stop') return;
    // Owed answers are written, then keep-alive clients still sending get 503 with
    // Connection: close for a moment instead of a reset when the thread ends.
    void http
      .close()
      .then(() => new Promise((resolve) => setTimeout(resolve, limits.keepAliveLingerMs)))
      .then(async () => {
        http.closeConnections();
        stopLoad();
        link.close();
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
