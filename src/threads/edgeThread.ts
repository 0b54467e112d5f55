// An edge thread (docs/guarantees.md#threads): serveEdge on the node's link borrowed over ports,
// reading the shared LMDB itself; it writes only usage and tokens' last-used times.
import { getHeapStatistics } from 'node:v8';
import { parentPort, resourceLimits, workerData } from 'node:worker_threads';
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
    if (message.type !== 'stop' && message.type !== 'handOver') return;
    // Owed answers are written, then keep-alive clients still sending get 503 with
    // Connection: close for a moment instead of a reset when the thread ends; when handing
    // over, their answers instead (docs/guarantees.md#an-edge-thread-that-ends).
    void (message.type === 'stop' ? http.close() : http.handOver())
      .then(() => new Promise((resolve) => setTimeout(resolve, limits.keepAliveLingerMs)))
      .then(async () => {
        http.closeConnections();
        stopLoad();
        stopWatch();
        link.close();
        await dbs.root.close();
        tell({ type: 'stopped' });
        process.exit(0);
      });
  });
  const stopWatch = endOnFailure(setup.index);
  // docs/architecture.md#searches-first: the resource thread paces its work by this.
  const stopLoad = publishEdgeLoad(new EdgeLoadBoard(setup.edgeLoad), setup.index, limits.edgeLoadSampleMs);
  tell({ type: 'listening', port: http.port });
} catch (error) {
  tell({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}

/**
 * docs/guarantees.md#an-edge-thread-that-ends: an error nothing handled, or a heap near its
 * limit, is told to the node once, which starts another edge and then has this one hand over.
 * The thread must not end by itself: a thread ending with uWebSockets.js's sockets open ends the
 * whole process. Returns what stops the heap watch.
 */
function endOnFailure(index: number): () => void {
  let ending = false;
  const end = (error: unknown) => {
    if (ending) return;
    ending = true;
    const failure = error instanceof Error ? error : new Error(String(error));
    tell({ type: 'ending', reason: failure.message, stack: failure.stack });
  };
  process.on('uncaughtException', end);
  process.on('unhandledRejection', end);
  // Of the old generation's limit, the most a thread's heap may hold for good: the young
  // generation comes on top of it, so the whole heap's limit would leave less margin.
  const mebibyte = 1024 * 1024;
  const limitMiB = resourceLimits.maxOldGenerationSizeMb ?? limits.edgeHeapMiB;
  const most = limitMiB * mebibyte * limits.edgeRestart.heapShare;
  const watch = setInterval(() => {
    const used = getHeapStatistics().used_heap_size;
    if (used > most) end(new Error(`edge thread ${index}: heap at ${Math.round(used / mebibyte)} MiB of its ${limitMiB} MiB limit`));
  }, limits.edgeRestart.heapCheckMs);
  watch.unref();
  return () => clearInterval(watch);
}
