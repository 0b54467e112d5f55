// Loads uWebSockets.js and refuses its silent pure-JS fallback (docs/dependencies.md#uws-fallback):
// that fallback lacks SSLApp and is an order of magnitude slower.
import uWS from 'uWebSockets.js';

if (typeof uWS.SSLApp !== 'function') {
  throw new Error(
    'uWebSockets.js loaded its slow JavaScript fallback instead of its native binary; ' +
      'refusing to start. Reinstall with `npm ci` on a glibc >= 2.36 x64 Linux with Node 20.',
  );
}

// uWS marks every answer with a `uWebSockets: 20` header; its `_cfg('silent')` (untyped) turns
// the mark off for this thread's event loop, and every thread that answers loads this module
// (docs/http.md#server-header).
(uWS as unknown as { _cfg(key: string): void })._cfg('silent');

export default uWS;
export type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
