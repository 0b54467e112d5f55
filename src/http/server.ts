// The uWebSockets.js front end: routes, listening, and a graceful stop that finishes the
// responses still owed before it lets go (docs/operations.md#signals).
import { limits } from '../config.js';
import { apiErrors } from './errors.js';
import { createAccessLog } from './accessLog.js';
import { createCors, type CorsOrigins } from './cors.js';
import { beginExchange, writeReply } from './reply.js';
import { searchRoute, type SearchRouteDeps } from './searchRoute.js';
import uWS, { type HttpRequest, type us_listen_socket } from './uws.js';

export const searchPath = '/api/v1/resources/search';

declare module 'uWebSockets.js' {
  interface TemplatedApp {
    /** Closes the listen sockets and every connection (in uWS 20.30, missing from its typings). */
    close(): TemplatedApp;
  }
}

export interface HttpServer {
  port: number;
  /** Stops accepting, then resolves when owed responses are written (or the grace ends). */
  close(): Promise<void>;
  /**
   * Closes every connection still open (keep-alive clients): a worker thread must, before it
   * ends, or uWS's open handles abort the process.
   */
  closeConnections(): void;
}

export interface HttpOptions {
  /** Origins browsers may call from; no CORS headers at all without (docs/http.md, "CORS"). */
  cors?: CorsOrigins | undefined;
}

export function startHttpServer(
  host: string,
  port: number,
  deps: Omit<SearchRouteDeps, 'requests' | 'begin'>,
  options: HttpOptions = {},
): Promise<HttpServer> {
  let owed = 0;
  let closing = false;
  let drained: (() => void) | undefined;
  const requests = {
    begin: () => void owed++,
    end: () => {
      owed--;
      if (owed === 0) drained?.();
    },
  };
  const app = uWS.App();
  const cors = createCors(options.cors);
  const exchanges = { nextRequestId: deps.nextRequestId, corsHeaders: cors.answerHeaders, logAccess: createAccessLog(deps.log) };
  const begin = (req: HttpRequest) => beginExchange(exchanges, req);
  const search = searchRoute({ ...deps, requests, begin });
  // Without CORS, OPTIONS is one more method the search does not allow.
  const allowed = options.cors ? 'POST, OPTIONS' : 'POST';

  app.post(searchPath, (res, req) => {
    if (closing) return writeReply(res, begin(req), apiErrors.unavailable);
    search(res, req);
  });
  if (options.cors) app.options(searchPath, (res, req) => writeReply(res, begin(req), cors.preflight(req.getHeader('origin'))));
  app.any(searchPath, (res, req) => {
    const exchange = begin(req);
    writeReply(res, exchange, apiErrors.methodNotAllowed(exchange.method, allowed));
  });
  app.any('/*', (res, req) => {
    const exchange = begin(req);
    writeReply(res, exchange, apiErrors.notFound(exchange.method, exchange.path));
  });

  return new Promise((resolve, reject) => {
    app.listen(host, port, (socket: us_listen_socket | false) => {
      if (!socket) return reject(new Error(`cannot listen on ${host}:${port}`));
      resolve({
        port: uWS.us_socket_local_port(socket),
        closeConnections: () => void app.close(),
        close: () => {
          closing = true;
          uWS.us_listen_socket_close(socket);
          if (owed === 0) return Promise.resolve();
          return new Promise<void>((done) => {
            drained = done;
            setTimeout(done, limits.shutdownGraceMs).unref();
          });
        },
      });
    });
  });
}
