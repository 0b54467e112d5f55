// Loads uWebSockets.js and refuses its silent pure-JS fallback (docs/dependencies.md#uws-fallback):
// that fallback lacks SSLApp and is an order of magnitude slower.
import uWS from 'uWebSockets.js';

if (typeof uWS.SSLApp !== 'function') {
  throw new Error(
    'uWebSockets.js loaded its slow JavaScript fallback instead of its native binary; ' +
      'refusing to start. Reinstall with `npm ci` on a glibc >= 2.36 x64 Linux with Node 20.',
  );
}

export default uWS;
export type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
