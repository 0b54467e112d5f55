// What the uWebSockets.js baselines share: the native build the service insists on (the
// import refuses the slow JavaScript fallback), one route for every method and path, and
// the `listening on` line the runner waits for, and an orderly exit on SIGTERM.
import uWS, { type HttpRequest, type HttpResponse } from '../../src/http/uws.js';

export function serveUwsBaseline(name: string, handler: (res: HttpResponse, req: HttpRequest) => void): void {
  uWS
    .App()
    .any('/*', handler)
    .listen('127.0.0.1', 0, (socket) => {
      if (!socket) throw new Error(`${name} could not listen`);
      process.stdout.write(`listening on http://127.0.0.1:${uWS.us_socket_local_port(socket)}\n`);
    });
  // An exit rather than death by signal, so that `node --cpu-prof` writes its profile (bench:cost).
  process.once('SIGTERM', () => process.exit(0));
}
