// The one place every request passes before its route (docs/http.md#framing): the front end
// registers all its routes, its pages and the stream's upgrade on this app, so each request's
// framing headers are checked once, and a HEAD request reaches its route with a response that
// writes no body (docs/http.md#head).
import { framingRefusal } from './framing.js';
import { bodiless } from './head.js';
import { type Exchange, type Reply, writeReply } from './reply.js';
import type { HttpRequest, HttpResponse, TemplatedApp } from './uws.js';

type Handler = (res: HttpResponse, req: HttpRequest) => void;

const routeMethods: ReadonlySet<PropertyKey> = new Set(['post', 'options', 'del', 'patch', 'put', 'head', 'connect', 'trace', 'any']);

/**
 * `app`, with each handler registered through it guarded; a GET route answers HEAD too. `begin`
 * starts the exchange of a refused request (its id, CORS headers, access log line).
 */
export function guardedApp(app: TemplatedApp, begin: (req: HttpRequest) => Exchange): TemplatedApp {
  const guard =
    (handler: Handler): Handler =>
    (res, req) => {
      const refusal = framingRefusal(req);
      if (refusal) refuse(res, begin(req), refusal);
      // Not req.getMethod(): in uWebSockets.js 20.30 it lower-cases the method in place, for every later reader.
      else handler(req.getCaseSensitiveMethod() === 'HEAD' ? bodiless(res) : res, req);
    };
  const guarded: TemplatedApp = new Proxy(app, {
    get(target, name) {
      if (name === 'get') {
        return (pattern: string, handler: Handler) => {
          const checked = guard(handler);
          target.get(pattern, checked).head(pattern, checked);
          return guarded;
        };
      }
      if (routeMethods.has(name)) {
        return (pattern: string, handler: Handler) => {
          (target[name as 'post'] as (pattern: string, handler: Handler) => TemplatedApp)(pattern, guard(handler));
          return guarded;
        };
      }
      if (name === 'ws') {
        return (pattern: string, behavior: Parameters<TemplatedApp['ws']>[1]) => {
          const { upgrade } = behavior;
          target.ws(pattern, upgrade ? { ...behavior, upgrade: guardUpgrade(upgrade, begin) } : behavior);
          return guarded;
        };
      }
      const value = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return guarded;
}

type Upgrade = NonNullable<Parameters<TemplatedApp['ws']>[1]['upgrade']>;

function guardUpgrade(upgrade: Upgrade, begin: (req: HttpRequest) => Exchange): Upgrade {
  return (res, req, context) => {
    const refusal = framingRefusal(req);
    if (refusal) refuse(res, begin(req), refusal);
    else upgrade(res, req, context);
  };
}

/**
 * A refusal that closes the connection is written once the bytes that came with the request are
 * parsed (docs/http.md#framing): answered at once, uWebSockets.js would go on to parse what
 * follows the request as the next one, by the framing just refused, and keep the connection.
 * Left owed, a request that follows makes uWebSockets.js close the connection without reading it.
 */
function refuse(res: HttpResponse, exchange: Exchange, refusal: Reply): void {
  if (!refusal.close) {
    writeReply(res, exchange, refusal);
    return;
  }
  let gone = false;
  res.onAborted(() => {
    gone = true;
  });
  setImmediate(() => {
    if (!gone) writeReply(res, exchange, refusal);
  });
}
