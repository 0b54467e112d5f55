// The edge threads of one server (docs/guarantees.md#threads): N worker threads, each a
// uWebSockets.js app on the same port (SO_REUSEPORT: the kernel spreads connections over them),
// each replaced when it ends (docs/guarantees.md#an-edge-thread-that-ends).
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
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
  /**
   * Told once when an edge keeps ending soon after each start (docs/guarantees.md#restart-storms):
   * the node cannot answer for long, and must stop.
   */
  onRestartStorm(error: Error): void;
}

export interface RunningEdges {
  port: number;
  /** Every edge stops accepting, writes what it owes, and ends. */
  close(): Promise<void>;
}

/** One edge thread, from its start to its end. */
export interface Edge {
  /** Its slot: a replacement takes the index of the edge it replaces. */
  index: number;
  worker: Worker;
  /** Its first word: 'listening', or 'failed' (it then ends by itself). */
  started: Promise<FromEdge>;
  /** Resolves once the thread has ended. */
  ended: Promise<void>;
  /** Asks it to close its listen socket only; resolves once it has, or has ended. */
  stopListening(): Promise<void>;
  /** Asks it once to stop or to hand over; resolves once it has ended. */
  end(how: 'stop' | 'handOver'): Promise<void>;
}

export async function startEdges(link: NodeLink, options: EdgeThreadSettings): Promise<RunningEdges> {
  const { log } = options;
  const port = options.port === 0 ? await freePort(options.host) : options.port;
  // Every thread not yet ended, including one handing over and one still starting.
  const living = new Set<Edge>();
  const starting = new Set<Promise<unknown>>();
  let closing = false;
  const postStatus = (edges: Iterable<Edge>) => {
    const snapshot = link.platformStatus.snapshot();
    if (!snapshot) return;
    const message: ToEdge = { type: 'platformStatus', snapshot };
    for (const edge of edges) edge.worker.postMessage(message);
  };
  // Per slot: when its edge started, when it began to listen, and how many in a row ended
  // sooner than `stableMs` after they listened (a slow start on a busy machine is not a quick end).
  const startedAt: number[] = [];
  const listeningAt: number[] = [];
  const quickEnds: number[] = Array(options.threads).fill(0);
  const launch = (index: number): Edge => {
    startedAt[index] = performance.now();
    const edge = startEdge(link, options, index, port, (reason, stack) => void replace(edge, reason, stack));
    living.add(edge);
    void edge.ended.then(() => living.delete(edge));
    const started = edge.started.finally(() => starting.delete(started));
    void started.then(() => {
      listeningAt[index] = performance.now();
    });
    starting.add(started);
    postStatus([edge]);
    return edge;
  };

  /** docs/guarantees.md#an-edge-thread-that-ends: another edge in its slot, then the ending one hands over. */
  const replace = async (ending: Edge, reason: string, stack: string | undefined): Promise<void> => {
    const { index } = ending;
    let cause = reason;
    while (!closing) {
      const quick = performance.now() - listeningAt[index]! < limits.edgeRestart.stableMs;
      quickEnds[index] = quick ? quickEnds[index]! + 1 : 1;
      if (quickEnds[index]! > limits.edgeRestart.maxQuickEnds) {
        const seconds = limits.edgeRestart.stableMs / 1000;
        options.onRestartStorm(
          new Error(
            `edge thread ${index} ended ${quickEnds[index]} times in a row, each within ${seconds} s of listening (last: ${cause})`,
          ),
        );
        return;
      }
      const waitMs = quickEnds[index] === 1 ? 0 : limits.edgeRestart.backoffMs * 2 ** (quickEnds[index]! - 2);
      log.warn({ thread: index, reason: cause, stack, waitMs }, 'edge thread ended; another takes its place');
      if (waitMs > 0) await sleep(waitMs);
      if (closing) return;
      const next = launch(index);
      const started = await next.started;
      if (started.type === 'listening') {
        log.info({ thread: index, ms: Math.round(performance.now() - startedAt[index]!) }, 'edge thread replaced');
        link.metrics?.edgeThreadReplaced();
        // Not awaited: it ends by itself after its linger, and close() waits for every thread.
        void ending.end('handOver');
        return;
      }
      // The ending edge, if it still runs, keeps answering while another start is tried.
      cause = `its replacement did not start: ${started.type === 'failed' ? started.message : started.type}`;
      stack = undefined;
    }
  };

  try {
    // All at once: the port accepts from the first edge's listen, and the server says it listens
    // once the last one does (docs/operations-endpoints.md#readiness-while-starting).
    const edges = Array.from({ length: options.threads }, (_, index) => launch(index));
    const started = await Promise.all(edges.map((edge) => edge.started));
    const failed = started.findIndex((message) => message.type !== 'listening');
    if (failed !== -1) {
      const message = started[failed]!;
      throw new Error(`edge thread ${failed}: ${message.type === 'failed' ? message.message : message.type}`);
    }
  } catch (error) {
    // The edge that failed ends by itself; the others stop as on SIGTERM. Not terminate():
    // a thread ended from outside with uWS loaded aborts the whole process.
    closing = true;
    await stopAll([...living]);
    throw error;
  }
  const posting = setInterval(() => postStatus(living), limits.platformStatus.postMs);
  posting.unref();
  return {
    port,
    close: async () => {
      closing = true;
      clearInterval(posting);
      // A thread still starting hears no stop before it listens.
      await Promise.all(starting);
      await stopAll([...living]);
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
export async function stopAll(edges: ReadonlyArray<Pick<Edge, 'stopListening' | 'end'>>): Promise<void> {
  await Promise.all(edges.map((edge) => edge.stopListening()));
  await Promise.all(edges.map((edge) => edge.end('stop')));
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

/** Starts edge `index`; `onEnding` hears once that it ended, or is ending, after it listened. */
function startEdge(
  link: NodeLink,
  options: EdgeThreadSettings,
  index: number,
  port: number,
  onEnding: (reason: string, stack: string | undefined) => void,
): Edge {
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
  let listened = false;
  let asked = false;
  let told = false;
  const ending = (reason: string, stack: string | undefined) => {
    if (!listened || asked || told) return;
    told = true;
    onEnding(reason, stack);
  };
  let start: (message: FromEdge) => void;
  const started = new Promise<FromEdge>((resolve) => (start = resolve));
  let notListening: () => void;
  const closedListen = new Promise<void>((resolve) => (notListening = resolve));
  const detach = lent.attach(worker);
  worker.on('message', (message: FromEdge) => {
    if (message.type === 'listening') listened = true;
    if (message.type === 'listening' || message.type === 'failed') start(message);
    else if (message.type === 'ending') ending(message.reason, message.stack);
    else if (message.type === 'notListening') notListening();
  });
  worker.on('error', (error) => {
    options.log.error({ err: error, thread: index }, 'edge thread failed');
    start({ type: 'failed', message: error.message });
    ending(error.message, error.stack);
  });
  const ended = new Promise<void>((resolve) =>
    worker.on('exit', (code) => {
      detach();
      // A thread that ended without stopping could not clear its reading.
      options.edgeLoad.write(index, 0);
      start({ type: 'failed', message: `exited with ${code}` });
      ending(`exited with ${code}`, undefined);
      notListening();
      resolve();
    }),
  );
  return {
    index,
    worker,
    started,
    ended,
    stopListening() {
      const message: ToEdge = { type: 'stopListening' };
      worker.postMessage(message);
      return closedListen;
    },
    end(how) {
      if (!asked) {
        asked = true;
        const message: ToEdge = { type: how };
        worker.postMessage(message);
      }
      return ended;
    },
  };
}

/** The service's own wait of a throttled sign-in, lent to an edge: a function cannot cross threads. */
function lendSigninWait(wait: SigninWait): MessageChannel {
  const channel = new MessageChannel();
  lendCalls(channel.port1, { wait }, ['wait']);
  return channel;
}
