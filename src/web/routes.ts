// The dashboard and console routes on the uWebSockets.js app (docs/dashboard.md#pages): handlers see
// a WebRequest and return a WebAnswer; only this module speaks uWS.
import { webLimits } from '../config.js';
import { isWritesUnavailable } from '../seams/webRecords/webStore.js';
import { readBody } from '../http/body.js';
import { apiErrors } from '../http/errors.js';
import { type Exchange, writeReply } from '../http/reply.js';
import type { HttpRequest, HttpResponse, TemplatedApp } from '../http/uws.js';
import type { WebAnswer, WebRequest } from './answers.js';
import { page, redirect } from './answers.js';
import { pageScript, stylesheet } from './assets.js';
import { isHasherBusy } from './passwordHasher.js';
import { type WebContext, viewerOf } from './context.js';
import { clearSessionCookie, newTokenCookie, readCookie, sessionCookie, setNewTokenCookie, setSessionCookie } from './cookies.js';
import { assetPaths, refusalPage, type Viewer } from './layout.js';
import { type LiveStreams, streamEvents } from './liveEvents.js';
import { frontPath, showFront, wantsHtml } from './pages/front.js';
import { csrfMatches } from './sessions.js';

/** docs/dashboard.md#content-security-policy: nothing inline, nothing from elsewhere. */
export const contentSecurityPolicy =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const securityHeaders: ReadonlyArray<readonly [string, string]> = [
  ['Content-Security-Policy', contentSecurityPolicy],
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Frame-Options', 'DENY'],
  ['Cache-Control', 'no-store'],
];

export type Access = 'anyone' | 'account' | 'operator';
export type Handler = (context: WebContext, request: WebRequest, viewer: Viewer) => WebAnswer | Promise<WebAnswer>;
export type PublicHandler = (context: WebContext, request: WebRequest) => WebAnswer | Promise<WebAnswer>;

export type Route =
  | { method: 'get' | 'post'; path: string; access: 'anyone'; handle: PublicHandler }
  | { method: 'get' | 'post'; path: string; access: 'account' | 'operator'; handle: Handler }
  | { method: 'get'; path: string; access: 'operator'; events: LiveStreams };

export interface WebRouteOptions {
  /** Mark the session cookie Secure on every answer (`--secure-cookies`: the server is reached over TLS). */
  secureCookies: boolean;
}

const signinPath = '/dashboard/signin';

function refused(status: string, viewer: Viewer | undefined, title: string, message: string): WebAnswer {
  return page(
    refusalPage(
      title,
      viewer,
      message,
      viewer ? { href: '/dashboard/tokens', label: 'Back to your dashboard' } : { href: signinPath, label: 'Sign in' },
    ),
    status,
  );
}

/** A write the store cannot take now: try again shortly. */
function unavailable(requestId: string): WebAnswer {
  const message = `This could not be saved just now (request ${requestId}). Try again in a few seconds.`;
  const answer = refused('503 Service Unavailable', undefined, 'Try again shortly', message);
  return answer.kind === 'page' ? { ...answer, headers: [['Retry-After', String(webLimits.unavailableRetrySeconds)]] } : answer;
}

/** Every password hash is taken: try again in a moment (docs/dashboard.md#password-hashing). */
function hasherBusy(requestId: string): WebAnswer {
  const message = `Too many sign-ins are being checked just now (request ${requestId}). Try again in a few seconds.`;
  const answer = refused('429 Too Many Requests', undefined, 'Try again shortly', message);
  return answer.kind === 'page' ? { ...answer, headers: [['Retry-After', String(webLimits.hashing.busyRetrySeconds)]] } : answer;
}

/** Who may go on: the viewer, or the answer for whoever may not. */
function admit(context: WebContext, request: WebRequest, access: Access): { viewer: Viewer | undefined } | { answer: WebAnswer } {
  if (request.method === 'POST' && !(request.session && csrfMatches(request.session, request.form.get('csrf') ?? undefined))) {
    const message =
      'This form was refused: it did not come from a page this server gave you, or that page is too old. Go back, reload the page and send the form again.';
    return { answer: refused('403 Forbidden', viewerOf(context, request), 'Form refused', message) };
  }
  if (access === 'anyone') return { viewer: undefined };
  const viewer = viewerOf(context, request);
  if (!viewer)
    return {
      answer:
        request.method === 'GET'
          ? redirect(signinPath)
          : refused('401 Unauthorized', undefined, 'Signed out', 'Your session has ended. Sign in again.'),
    };
  if (access === 'operator' && !viewer.operator)
    return {
      answer: refused(
        '403 Forbidden',
        viewer,
        'Operators only',
        'The operator console is for operator accounts. Ask your operator if you need it.',
      ),
    };
  return { viewer };
}

function writeAnswer(res: HttpResponse, exchange: Exchange, request: WebRequest, answer: WebAnswer): void {
  const status = answer.kind === 'page' ? answer.status : '303 See Other';
  res.cork(() => {
    res.writeStatus(status);
    res.writeHeader('X-Request-Id', exchange.id);
    for (const [name, value] of securityHeaders) res.writeHeader(name, value);
    if (answer.session) {
      const lifetime = Math.round((answer.session.record.expiresAt - Date.now()) / 1000);
      res.writeHeader('Set-Cookie', setSessionCookie(answer.session.id, lifetime, request.secure));
    } else if (answer.clearSession) {
      res.writeHeader('Set-Cookie', clearSessionCookie(request.secure));
    }
    if (answer.newToken) res.writeHeader('Set-Cookie', setNewTokenCookie(answer.newToken.secret, answer.newToken.path, request.secure));
    if (answer.kind === 'redirect') {
      res.writeHeader('Location', answer.location);
      // An empty body with its Content-Length (0): endWithoutBody would leave the client waiting for one.
      res.end();
    } else {
      res.writeHeader('Content-Type', 'text/html; charset=utf-8');
      for (const [name, value] of answer.headers ?? []) res.writeHeader(name, value);
      res.end(answer.body.text);
    }
  });
  exchange.logAccess(exchange, status);
}

/** The headers a handler needs, read before the uWS handler returns (uWS reuses `req`). */
function requestHead(req: HttpRequest, res: HttpResponse, options: WebRouteOptions) {
  const secure = options.secureCookies || req.getHeader('x-forwarded-proto').toLowerCase() === 'https';
  const cookies = req.getHeader('cookie');
  return {
    method: req.getCaseSensitiveMethod(),
    path: req.getUrl(),
    query: new URLSearchParams(req.getQuery() ?? ''),
    cookie: readCookie(cookies, sessionCookie),
    newToken: readCookie(cookies, newTokenCookie) || undefined,
    contentType: req.getHeader('content-type').split(';')[0]!.trim().toLowerCase(),
    declaredBytes: Number(req.getHeader('content-length')) || 0,
    secure,
    origin: `${secure ? 'https' : 'http'}://${req.getHeader('host')}`,
    address: Buffer.from(res.getRemoteAddressAsText()).toString(),
  };
}

/**
 * Every page is answered with the security headers, every POST read as a bounded form and refused
 * without its session's CSRF token (docs/dashboard.md#csrf), every signed-in page behind its
 * session and the console behind the operator role (docs/dashboard.md#operator-role).
 */
export function registerWebRoutes(
  app: TemplatedApp,
  begin: (req: HttpRequest) => Exchange,
  context: WebContext,
  routes: readonly Route[],
  options: WebRouteOptions,
): void {
  const serve = (res: HttpResponse, req: HttpRequest, route: Route) => {
    const exchange = begin(req);
    const head = requestHead(req, res, options);
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    const respond = (form: URLSearchParams) => {
      const request: WebRequest = {
        method: head.method,
        path: head.path,
        query: head.query,
        form,
        session: undefined,
        address: head.address,
        secure: head.secure,
        origin: head.origin,
        newToken: head.newToken,
      };
      // Everything that reads the store runs inside the promise, so that a failing store is a
      // 500 page and a log line, never an exception thrown into uWS.
      const run = async (): Promise<WebAnswer | 'streaming'> => {
        request.session = context.sessions.find(head.cookie);
        const admitted = admit(context, request, route.access);
        if ('answer' in admitted) return admitted.answer;
        if ('events' in route) {
          streamEvents(res, exchange, route.events, () => aborted);
          return 'streaming';
        }
        if (route.access === 'anyone') return route.handle(context, request);
        return route.handle(context, request, admitted.viewer!);
      };
      run().then(
        (answer) => {
          if (!aborted && answer !== 'streaming') writeAnswer(res, exchange, request, answer);
        },
        (error: unknown) => {
          if (isHasherBusy(error)) {
            context.log.warn({ requestId: exchange.id, path: head.path }, 'password hasher full: sign-in refused');
            if (!aborted) writeAnswer(res, exchange, request, hasherBusy(exchange.id));
            return;
          }
          if (isWritesUnavailable(error)) {
            // docs/dashboard.md#in-a-cluster: the cluster's store is out of reach for now.
            context.log.warn({ err: error, requestId: exchange.id, path: head.path }, 'dashboard write unavailable');
            if (!aborted) writeAnswer(res, exchange, request, unavailable(exchange.id));
            return;
          }
          context.log.error({ err: error, requestId: exchange.id, path: head.path }, 'dashboard page failed');
          if (!aborted)
            writeAnswer(
              res,
              exchange,
              request,
              refused(
                '500 Internal Server Error',
                undefined,
                'Something went wrong',
                `The server failed to answer (request ${exchange.id}). Try again.`,
              ),
            );
        },
      );
    };
    if (route.method === 'get') return respond(new URLSearchParams());
    const bare = { ...head, form: new URLSearchParams(), session: undefined };
    if (head.contentType !== 'application/x-www-form-urlencoded') {
      writeAnswer(res, exchange, bare, refused('415 Unsupported Media Type', undefined, 'Form refused', 'Send this form from its page.'));
      return;
    }
    readBody(
      res,
      webLimits.maxFormBytes,
      (body) => {
        if (aborted) return;
        if (body.kind === 'tooLarge')
          writeAnswer(res, exchange, bare, refused('413 Content Too Large', undefined, 'Form refused', 'The form is too large.'));
        else respond(new URLSearchParams(body.text));
      },
      head.declaredBytes,
    );
  };

  const asset = (path: string, type: string, body: string) =>
    app.get(path, (res, req) => {
      const exchange = begin(req);
      res.cork(() => {
        res.writeStatus('200 OK');
        res.writeHeader('Content-Type', type);
        res.writeHeader('X-Content-Type-Options', 'nosniff');
        res.writeHeader('Cache-Control', 'no-cache');
        res.end(body);
      });
      exchange.logAccess(exchange, '200 OK');
    });
  asset(assetPaths.style, 'text/css; charset=utf-8', stylesheet);
  asset(assetPaths.script, 'text/javascript; charset=utf-8', pageScript);

  const methods = new Map<string, string[]>();
  for (const route of routes) {
    app[route.method](route.path, (res, req) => serve(res, req, route));
    methods.set(route.path, [...(methods.get(route.path) ?? []), route.method.toUpperCase()]);
  }
  for (const [path, allowed] of methods) {
    app.any(path, (res, req) => {
      const exchange = begin(req);
      const head = requestHead(req, res, options);
      const message = `This page answers ${allowed.join(' and ')} only.`;
      const body = refusalPage('Not allowed', undefined, message, { href: '/dashboard', label: 'Go to the dashboard' });
      const answer: WebAnswer = { kind: 'page', status: '405 Method Not Allowed', body, headers: [['Allow', allowed.join(', ')]] };
      writeAnswer(res, exchange, { ...head, form: new URLSearchParams(), session: undefined }, answer);
    });
  }
  // docs/dashboard.md#front-page: a browser gets a page of links, an API client the API's 404.
  app.get(frontPath, (res, req) => {
    const exchange = begin(req);
    if (!wantsHtml(req.getHeader('accept'))) return writeReply(res, exchange, apiErrors.notFound(exchange.method, exchange.path));
    writeAnswer(res, exchange, { ...requestHead(req, res, options), form: new URLSearchParams(), session: undefined }, showFront());
  });
  for (const prefix of ['/dashboard', '/console']) {
    app.get(prefix, (res, req) => {
      const exchange = begin(req);
      writeAnswer(
        res,
        exchange,
        { ...requestHead(req, res, options), form: new URLSearchParams(), session: undefined },
        redirect(prefix === '/console' ? '/console/accounts' : '/dashboard/tokens'),
      );
    });
    app.any(`${prefix}/*`, (res, req) => {
      const exchange = begin(req);
      const head = requestHead(req, res, options);
      writeAnswer(
        res,
        exchange,
        { ...head, form: new URLSearchParams(), session: undefined },
        page(
          refusalPage('Not found', undefined, `There is no page at ${head.path}.`, { href: '/dashboard', label: 'Go to the dashboard' }),
          '404 Not Found',
        ),
      );
    });
  }
}
