// The uWebSockets.js front end: routes, listening, and a graceful stop that finishes the
// responses still owed before it lets go (operator-interface.md: SIGTERM).
import { limits } from '../config.js';
import { apiErrors } from './errors.js';
import { writeReply } from './reply.js';
import { searchRoute, type SearchRouteDeps } from './searchRoute.js';
import uWS, { type us_listen_socket } from './uws.js';

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

export function startHttpServer(host: string, port: number, deps: Omit<SearchRouteDeps, 'requests'>): Promise<HttpServer> {
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
  const search = searchRoute({ ...deps, requests });

  app.post(searchPath, (res, req) => {
    if (closing) return writeReply(res, deps.nextRequestId(), apiErrors.unavailable);
    search(res, req);
  });
  app.any(searchPath, (res, req) => {
    writeReply(res, deps.nextRequestId(), apiErrors.methodNotAllowed(req.getCaseSensitiveMethod(), 'POST'));
  });
  app.any('/*', (res, req) => {
    writeReply(res, deps.nextRequestId(), apiErrors.notFound(req.getCaseSensitiveMethod(), req.getUrl()));
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
