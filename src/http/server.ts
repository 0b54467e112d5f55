// The uWebSockets.js front end: routes, listening, and a graceful stop that finishes the
// responses still owed before it lets go (docs/operations.md#signals).
import { limits } from '../config.js';
import { apiErrors } from './errors.js';
import type { RequestMetrics } from '../metrics/metrics.js';
import { type AccessEntry, createAccessLog } from './accessLog.js';
import { createCors, type CorsOrigins } from './cors.js';
import { guardedApp } from './guardedApp.js';
import { registerPublicRoutes } from './publicRoutes.js';
import type { ReadinessCheck } from './readiness.js';
import { beginExchange, type Exchange, writeReply } from './reply.js';
import { searchRoute, type SearchRouteDeps } from './searchRoute.js';
import { historyPath, historyRoute } from './historyRoute.js';
import type { HistorySource } from '../resources/historySource.js';
import { registerStreamRoutes, type StreamWiring } from './streamRoute.js';
import uWS, { type HttpRequest, type TemplatedApp, type us_listen_socket } from './uws.js';

export const searchPath = '/api/v1/resources/search';

const connectionClose = ['Connection', 'close'] as const;

declare module 'uWebSockets.js' {
  interface TemplatedApp {
    /** Closes the listen sockets and every connection (in uWS 20.30, missing from its typings). */
    close(): TemplatedApp;
  }
}

export interface HttpServer {
  port: number;
  /**
   * Closes the listen socket only: connections already open are answered as before. Edge threads
   * all do this before any of them tells a client to reconnect (docs/guarantees.md#threads).
   */
  stopListening(): void;
  /** Stops accepting (if still listening), then resolves when owed responses are written (or the grace ends). */
  close(): Promise<void>;
  /**
   * Stops accepting while the port's other listeners take the new connections, and answers
   * as before but with `Connection: close`, so each keep-alive client reconnects to them after
   * its answer (docs/guarantees.md#an-edge-thread-that-ends); resolves as `close` does.
   */
  handOver(): Promise<void>;
  /**
   * Closes every connection still open (keep-alive clients): a worker thread must, before it
   * ends, or uWS's open handles abort the process.
   */
  closeConnections(): void;
}

export interface HttpOptions {
  /** Origins browsers may call from; no CORS headers at all without (docs/http.md#cors). */
  cors?: CorsOrigins | undefined;
  /** What /readyz asks besides "not stopping" (docs/operations-endpoints.md#get-readyz). */
  readiness?: readonly ReadinessCheck[];
  /** Told of every answer on the API's routes and every refusal at admission; none when absent. */
  metrics?: RequestMetrics | undefined;
  /** The WebSocket stream of resource changes (docs/push.md); no stream routes when absent. */
  stream?: StreamWiring | undefined;
  /** Adds the dashboard and console pages (src/web/webPages.ts, docs/dashboard.md); none when absent. */
  pages?: ((app: TemplatedApp, begin: (req: HttpRequest) => Exchange) => void) | undefined;
  /** False on a collect node (docs/cluster.md#node-roles): the search path is then unknown here (404). */
  searches?: boolean;
  /** Where history is read (docs/history.md#api); no history path when absent. */
  history?: HistorySource | undefined;
}

/** Problems /readyz reports while the server stops. */
export const stoppingProblem = { component: 'server', message: 'stopping: this server takes no more searches' };

export function startHttpServer(
  host: string,
  port: number,
  deps: Omit<SearchRouteDeps, 'requests' | 'begin' | 'metrics'>,
  options: HttpOptions = {},
): Promise<HttpServer> {
  let owed = 0;
  let closing = false;
  let handingOver = false;
  let drained: (() => void) | undefined;
  const requests = {
    begin: () => void owed++,
    end: () => {
      owed--;
      if (owed === 0) drained?.();
    },
  };
  const cors = createCors(options.cors);
  const logAccess = createAccessLog(deps.log);
  // While handing over, every answer tells its client to reconnect (to another listener).
  const answerHeaders = (origin: string) => (handingOver ? [...cors.answerHeaders(origin), connectionClose] : cors.answerHeaders(origin));
  const exchanges = { nextRequestId: deps.nextRequestId, corsHeaders: answerHeaders, logAccess };
  const begin = (req: HttpRequest) => beginExchange(exchanges, req);
  // docs/http.md#framing: every route below is registered through the guard.
  const app = guardedApp(uWS.App(), begin);
  const { metrics } = options;
  // Every answer on an admitted path is counted under that path where it is logged, whichever
  // branch wrote it: a history answer is told apart from a search's.
  const beginCounted = (path: string) => {
    if (!metrics) return begin;
    const counted = {
      ...exchanges,
      logAccess: (entry: AccessEntry, status: string) => {
        logAccess(entry, status);
        metrics.requestAnswered(path, status, (performance.now() - entry.startedAt) / 1000);
      },
    };
    return (req: HttpRequest) => beginExchange(counted, req);
  };
  const beginSearch = beginCounted(searchPath);
  const beginHistory = beginCounted(historyPath);
  const search = searchRoute({ ...deps, requests, begin: beginSearch, metrics });
  // docs/history.md#api: admitted by the search's route, on its own path and counted under it.
  const history = options.history && historyRoute({ ...deps, requests, begin: beginHistory, metrics }, options.history);
  const stopping: ReadinessCheck = () => (closing ? [stoppingProblem] : []);
  registerPublicRoutes(app, { readiness: [stopping, ...(options.readiness ?? [])], begin, metrics });
  // Without CORS, OPTIONS is one more method the search does not allow.
  const allowed = options.cors ? 'POST, OPTIONS' : 'POST';

  const admittedRoutes = history
    ? ([
        [searchPath, search, beginSearch],
        [historyPath, history, beginHistory],
      ] as const)
    : ([[searchPath, search, beginSearch]] as const);
  if (options.searches ?? true) {
    for (const [path, route, beginOnPath] of admittedRoutes) {
      app.post(path, (res, req) => {
        if (closing) writeReply(res, beginOnPath(req), apiErrors.unavailable);
        else route(res, req);
      });
      if (options.cors) app.options(path, (res, req) => writeReply(res, beginOnPath(req), cors.preflight(req.getHeader('origin'))));
      app.any(path, (res, req) => {
        const exchange = beginOnPath(req);
        writeReply(res, exchange, apiErrors.methodNotAllowed(exchange.method, allowed));
      });
    }
  }
  const stream =
    options.stream && (options.searches ?? true)
      ? registerStreamRoutes(app, { ...deps, ...options.stream, begin, stopping: () => closing })
      : undefined;
  options.pages?.(app, begin);
  app.any('/*', (res, req) => {
    const exchange = begin(req);
    writeReply(res, exchange, apiErrors.notFound(exchange.method, exchange.path));
  });

  let listening: us_listen_socket | undefined;
  /** Closes the listen socket only; connections already open are answered as before. */
  const stopListening = (): void => {
    if (listening) uWS.us_listen_socket_close(listening);
    listening = undefined;
  };
  /** Stops accepting, then resolves when owed responses are written (or the grace ends). */
  const windDown = (): Promise<void> => {
    stopListening();
    stream?.goingAway();
    if (owed === 0) return Promise.resolve();
    return new Promise<void>((done) => {
      drained = done;
      setTimeout(done, limits.shutdownGraceMs).unref();
    });
  };
  return new Promise((resolve, reject) => {
    app.listen(host, port, (socket: us_listen_socket | false) => {
      if (!socket) return reject(new Error(`cannot listen on ${host}:${port}`));
      listening = socket;
      resolve({
        port: uWS.us_socket_local_port(socket),
        stopListening,
        closeConnections: () => void app.close(),
        close: () => {
          closing = true;
          return windDown();
        },
        handOver: () => {
          handingOver = true;
          return windDown();
        },
      });
    });
  });
}
