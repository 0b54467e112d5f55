// The endpoints anyone may call without a token, never counted against a quota or rate limit
// (docs/operations-endpoints.md): the OpenAPI document, liveness and readiness.
import { performance } from 'node:perf_hooks';
import { openApiDocument, openApiPaths } from '../api/openapi.js';
import type { RequestMetrics } from '../metrics/metrics.js';
import { apiErrors } from './errors.js';
import type { ReadinessCheck, ReadinessProblem } from './readiness.js';
import { writeReply, type Exchange, type Reply } from './reply.js';
import type { HttpRequest, HttpResponse, TemplatedApp } from './uws.js';

export interface PublicRoutesDeps {
  /** Every check must find no problem for /readyz to answer 200. */
  readiness: readonly ReadinessCheck[];
  /** Starts a request's exchange (request id, CORS headers, access log), as for every route. */
  begin(req: HttpRequest): Exchange;
  metrics?: RequestMetrics | undefined;
}

/** Probes must see the state of now, never a cached answer. */
const noStore: ReadonlyArray<readonly [string, string]> = [['Cache-Control', 'no-store']];

const alive: Reply = { status: '200 OK', body: JSON.stringify({ status: 'ok' }), headers: noStore };

function readinessReply(checks: readonly ReadinessCheck[]): Reply {
  const problems: ReadinessProblem[] = [];
  for (const check of checks) {
    try {
      problems.push(...check());
    } catch (error) {
      // A check that cannot tell is a reason not to be ready, not a 500.
      problems.push({
        component: 'readiness',
        message: `a readiness check failed: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }
  const ready = problems.length === 0;
  return { status: ready ? '200 OK' : '503 Service Unavailable', body: JSON.stringify({ ready, problems }), headers: noStore };
}

export function registerPublicRoutes(app: TemplatedApp, deps: PublicRoutesDeps): void {
  // Built once: the document changes only with the code.
  const documentReply: Reply = { status: '200 OK', body: JSON.stringify(openApiDocument) };
  const routes: Array<[path: string, answer: () => Reply]> = [
    [openApiPaths.document, () => documentReply],
    [openApiPaths.liveness, () => alive],
    [openApiPaths.readiness, () => readinessReply(deps.readiness)],
  ];
  for (const [path, answer] of routes) {
    const respond = (res: HttpResponse, exchange: Exchange, reply: Reply) => {
      writeReply(res, exchange, reply);
      deps.metrics?.requestAnswered(path, reply.status, (performance.now() - exchange.startedAt) / 1000);
    };
    app.get(path, (res, req) => respond(res, deps.begin(req), answer()));
    app.any(path, (res, req) => {
      const exchange = deps.begin(req);
      respond(res, exchange, apiErrors.methodNotAllowed(exchange.method, 'GET'));
    });
  }
}
