// The edge threads of one server (docs/guarantees.md#threads): N worker threads, each a
// uWebSockets.js app on the same port (SO_REUSEPORT: the kernel spreads connections over them).
import { createServer } from 'node:net';
import { MessageChannel, Worker } from 'node:worker_threads';
import { limits } from '../config.js';
import type { EdgeLoadBoard } from './edgeLoad.js';
import type { CommonEdgeSettings, NodeLink, SigninWait } from './edgeLink.js';
import { lendCalls } from '../seams/portCalls.js';
import type { EdgeSetup, FromEdge, ToEdge } from './edgeMessages.js';
import { lendLink } from './portLink.js';

/** The node's side of N edge threads; each gets the node's link lent over ports. */
export interface EdgeThreadSettings extends CommonEdgeSettings {
  threads: number;
  /** Each edge opens its own handle on it. */
  dataDir: string;
  /** Where each edge writes how busy it is (one slot per thread). */
  edgeLoad: EdgeLoadBoard;
}

export interface RunningEdges {
  port: number;
  /** Every edge stops accepting, writes what it owes, and ends. */
  close(): Promise<void>;
}

/** An edge thread as the node drives it: its worker, and the next message it sent (or its end). */
export interface Edge {
  worker: Pick<Worker, 'postMessage'>;
  next(): Promise<FromEdge>;
}

export async function startEdges(link: NodeLink, options: EdgeThreadSettings): Promise<RunningEdges> {
  const port = options.port === 0 ? await freePort(options.host) : options.port;
  // All at once: the port accepts from the first edge's listen, and the server says it listens
  // once the last one does (docs/operations-endpoints.md#readiness-while-starting).
  const edges = Array.from({ length: options.threads }, (_, index) => startEdge(link, options, index, port));
  const started = await Promise.all(edges.map((edge) => edge.next()));
  const failed = started.findIndex((message) => message.type !== 'listening');
  if (failed !== -1) {
    // An edge that failed ends by itself; the others stop as on SIGTERM. Not terminate():
    // a thread ended from outside with uWS loaded aborts the whole process.
    await stopAll(edges.filter((_, index) => started[index]!.type === 'listening'));
    const message = started[failed]!;
    throw new Error(`edge thread ${failed}: ${message.type === 'failed' ? message.message : message.type}`);
  }
  const postStatus = () => {
    const snapshot = link.platformStatus.snapshot();
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

/**
 * Every edge closes its listen socket first, and only then does any edge answer 503 with
 * `Connection: close` (docs/guarantees.md#threads). A client told to reconnect by one edge
 * while another still listened would be queued on that other's socket, and Linux resets the
 * connections queued on a listen socket when it closes: the client saw ECONNRESET instead of
 * a refused connection.
 */
export async function stopAll(edges: Edge[]): Promise<void> {
  const listened = await Promise.all(
    edges.map(async (edge) => {
      const answered = edge.next();
      const stopListening: ToEdge = { type: 'stopListening' };
      edge.worker.postMessage(stopListening);
      // An edge that ended earlier answers with its end: it has nothing left to stop.
      return (await answered).type === 'notListening';
    }),
  );
  await Promise.all(
    edges
      .filter((_, index) => listened[index])
      .map(async (edge) => {
        const stopped = edge.next();
        const stop: ToEdge = { type: 'stop' };
        edge.worker.postMessage(stop);
        await stopped;
      }),
  );
}

/**
 * A port free right now on `host`, as the kernel picks one: uWS binds port 0 without
 * SO_REUSEPORT, so threads could not share the port it picked. Keeping other processes off the
 * port is the port guard's job, done once before any thread binds.
 */
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

function startEdge(link: NodeLink, options: EdgeThreadSettings, index: number, port: number): Edge {
  const lent = lendLink(link);
  const signinWait = options.signinWait && lendSigninWait(options.signinWait);
  const setup: EdgeSetup = {
    index,
    dataDir: options.dataDir,
    host: options.host,
    port,
    accountTable: options.accountTable.buffer,
    authVersions: options.authVersions.buffer,
    edgeLoad: options.edgeLoad.buffer,
    link: lent.ports,
    logLevel: options.log.level,
    cors: options.cors,
    secureCookies: options.secureCookies,
    streamIdleTimeoutSeconds: options.streamIdleTimeoutSeconds,
    signinWait: signinWait?.port2,
    stream: options.stream,
  };
  const worker = new Worker(new URL('./edgeThread.js', import.meta.url), {
    workerData: setup,
    transferList: signinWait ? [...lent.transfer, signinWait.port2] : lent.transfer,
    resourceLimits: { maxOldGenerationSizeMb: limits.edgeHeapMiB },
  });
  // Messages and the thread's end, in order, for whoever waits on the next one.
  const inbox: FromEdge[] = [];
  const waiting: Array<(message: FromEdge) => void> = [];
  const deliver = (message: FromEdge) => {
    const waiter = waiting.shift();
    if (waiter) waiter(message);
    else inbox.push(message);
  };
  lent.attach(worker);
  worker.on('message', (message: FromEdge) => {
    if (message.type !== 'metrics' && message.type !== 'problem') deliver(message);
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

/** The service's own wait of a throttled sign-in, lent to an edge: a function cannot cross threads. */
function lendSigninWait(wait: SigninWait): MessageChannel {
  const channel = new MessageChannel();
  lendCalls(channel.port1, { wait }, ['wait']);
  return channel;
}
