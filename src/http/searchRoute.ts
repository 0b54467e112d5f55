// POST /api/v1/resources/search. Checks run in the order of decisions 15: token (401),
// quota (403), rate limit (429), body (413/422), then the answer (200). A counted request
// is answered only after its count is durable (issue 2: no free requests after a crash).
import { limits } from '../config.js';
import type { Admissions } from '../access/admission.js';
import type { Authenticator } from '../access/authenticator.js';
import { renderSearchResponse } from '../api/searchResponse.js';
import { validateSearchText } from '../api/validation.js';
import type { Logger } from '../log.js';
import type { ResourceDemand } from '../resources/demand.js';
import type { ViewSource } from '../resources/view.js';
import { readBody, type BodyResult } from './body.js';
import { apiErrors } from './errors.js';
import { writeReply, type Exchange, type Reply } from './reply.js';
import type { HttpRequest, HttpResponse } from './uws.js';

export interface SearchRouteDeps {
  authenticator: Authenticator;
  admissions: Admissions;
  /** Where answers are read from. */
  views: ViewSource;
  /** Told, after an answer is rendered, which resources it found unknown or due a refresh. */
  demand: ResourceDemand;
  log: Logger;
  nextRequestId(): string;
  /** Starts a request's exchange (its id, CORS headers and access log entry). */
  begin(req: HttpRequest): Exchange;
  now(): number;
  /** Tracks responses still owed, for graceful shutdown. */
  requests: { begin(): void; end(): void };
}

export function searchRoute(deps: SearchRouteDeps) {
  return (res: HttpResponse, req: HttpRequest): void => {
    let aborted = false;
    // A response is owed from admission until it is written or its client goes away: a client
    // that drops mid-body must not hold a graceful stop for the whole grace period (issue 5).
    let owed = false;
    const settle = () => {
      if (!owed) return;
      owed = false;
      deps.requests.end();
    };
    res.onAborted(() => {
      aborted = true;
      settle();
    });
    const exchange = deps.begin(req);
    // `req` is only valid until this function returns: read everything needed now.
    const authorization = req.getHeader('authorization');
    const declaredLength = Number(req.getHeader('content-length') || 0);
    const now = deps.now();

    const authentication = deps.authenticator.authenticate(authorization, now);
    if (authentication.kind !== 'authenticated') {
      return writeReply(res, exchange, authentication.kind === 'missing' ? apiErrors.missingToken : apiErrors.invalidToken);
    }
    exchange.account = authentication.account.name;
    const admission = deps.admissions.admit(authentication.account, now);
    if (admission.kind === 'quotaExhausted') {
      return writeReply(res, exchange, apiErrors.quotaExhausted(admission.quota, admission.resetsOn), admission.headers);
    }
    if (admission.kind === 'rateLimited') {
      return writeReply(res, exchange, apiErrors.rateLimited(admission.retryAfterSeconds), admission.headers);
    }

    deps.requests.begin();
    owed = true;
    const respond = (reply: Reply) => {
      admission.counted.then(
        () => {
          if (!aborted) writeReply(res, exchange, reply, admission.headers);
        },
        (error: unknown) => {
          deps.log.error({ err: error, requestId: exchange.id, account: authentication.account.name }, 'usage count not persisted');
          if (!aborted) writeReply(res, exchange, apiErrors.internal(exchange.id));
        },
      ).finally(settle);
    };

    readBody(res, limits.maxBodyBytes, (body) => {
      try {
        respond(answer(body, deps));
      } catch (error) {
        deps.log.error({ err: error, requestId: exchange.id }, 'search failed');
        respond(apiErrors.internal(exchange.id));
      }
    }, declaredLength);
  };
}

function answer(body: BodyResult, deps: SearchRouteDeps): Reply {
  if (body.kind === 'tooLarge') return apiErrors.bodyTooLarge(limits.maxBodyBytes, body.drained);
  const validation = validateSearchText(body.text);
  if (!validation.ok) return apiErrors.invalid(validation.errors);
  const now = deps.now();
  const rendered = renderSearchResponse(validation.resources, deps.views, now);
  // docs/architecture.md, "Reads are reads": the answer is rendered first, then demand is told.
  if (rendered.wanted) deps.demand.wanted(rendered.wanted, now);
  return { status: '200 OK', body: rendered.body };
}
