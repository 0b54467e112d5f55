// A uWS app with only the public routes on a free port, closed with the test.
import type { Test } from 'tap';
import { createAccessLog } from '../../src/http/accessLog.js';
import { createCors } from '../../src/http/cors.js';
import { registerPublicRoutes, type PublicRoutesDeps } from '../../src/http/publicRoutes.js';
import { beginExchange } from '../../src/http/reply.js';
import { requestIdSource } from '../../src/http/requestIds.js';
import { silentLogger } from '../../src/log.js';
import uWS, { type us_listen_socket } from '../../src/http/uws.js';

/** The exchanges of a server without CORS, logging nowhere. */
const exchanges = {
  nextRequestId: requestIdSource(),
  corsHeaders: createCors(undefined).answerHeaders,
  logAccess: createAccessLog(silentLogger),
};

export async function startPublicApp(t: Test, deps: Omit<PublicRoutesDeps, 'begin'>): Promise<string> {
  const app = uWS.App();
  registerPublicRoutes(app, { ...deps, begin: (req) => beginExchange(exchanges, req) });
  const socket = await new Promise<us_listen_socket>((resolve, reject) =>
    app.listen('127.0.0.1', 0, (listening: us_listen_socket | false) =>
      listening ? resolve(listening) : reject(new Error('cannot listen')),
    ),
  );
  t.teardown(() => uWS.us_listen_socket_close(socket));
  return `http://127.0.0.1:${uWS.us_socket_local_port(socket)}`;
}
