// A uWS app with only the public routes on a free port, closed with the test.
import type { Test } from 'tap';
import { registerPublicRoutes, type PublicRoutesDeps } from '../../src/http/publicRoutes.js';
import uWS, { type us_listen_socket } from '../../src/http/uws.js';

export async function startPublicApp(t: Test, deps: PublicRoutesDeps): Promise<string> {
  const app = uWS.App();
  registerPublicRoutes(app, deps);
  const socket = await new Promise<us_listen_socket>((resolve, reject) =>
    app.listen('127.0.0.1', 0, (listening: us_listen_socket | false) => (listening ? resolve(listening) : reject(new Error('cannot listen')))),
  );
  t.teardown(() => uWS.us_listen_socket_close(socket));
  return `http://127.0.0.1:${uWS.us_socket_local_port(socket)}`;
}
