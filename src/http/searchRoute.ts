// POST /api/v1/resources/search, its checks in the order of docs/api.md#a-45: token (401), a suspended
// account (403), quota (403), rate limit (429), body (413/422), then the answer (200).
import { limits } from '../config.js';
import type { Admissions, Decision } from '../access/admission.js';
import type { Authenticator } from '../access/authenticator.js';
import { ReservationNotWritten } from '../access/unitMeter.js';
import type { LimitFigures } from '../access/limitHeaders.js';
import { renderSearchResponse } from '../api/searchResponse.js';
import { validateSearchText } from '../api/validation.js';
import type { Logger } from '../log.js';
import type { RefusalReason, RequestMetrics } from '../metrics/metrics.js';
import type { ResourceDemand } from '../resources/demand.js';
import type { ViewSource } from '../resources/view.js';
import { readBody, type BodyResult } from './body.js';
import { apiErrors } from './errors.js';
import { type Exchange, type Reply, writeReply } from './reply.js';
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
  /** Told of every refusal at admission; answers are counted where they are written (src/http/server.ts). */
  metrics?: RequestMetrics | undefined;
}

/**
 * How a route admitted like a search answers its body (the search itself, or the history:
 * docs/history.md#api); it reads what it needs of `req` when called, before the handler returns.
 */
export type BodyAnswerer = (req: HttpRequest) => (body: BodyResult, deps: SearchRouteDeps) => Reply;

const searchAnswerer: BodyAnswerer = () => answer;

/**
 * A request is admitted only against quota already reserved on disk, so no answer is ever free
 * after a crash (docs/guarantees.md#quota-and-rate-across-threads); an account with none in hand
 * waits for its next reservation while its body is read.
 */
export function searchRoute(deps: SearchRouteDeps, answerFor: BodyAnswerer = searchAnswerer) {
  return (res: HttpResponse, req: HttpRequest): void => {
    const exchange = deps.begin(req);
    // `req` is only valid until this function returns: read everything needed now.
    const authorization = req.getHeader('authorization');
    const declaredLength = Number(req.getHeader('content-length') || 0);
    const answerBody = answerFor(req);
    const now = deps.now();

    const authentication = deps.authenticator.authenticate(authorization, now);
    if (authentication.kind !== 'authenticated') {
      const missing = authentication.kind === 'missing';
      deps.metrics?.admissionRefused(missing ? 'missing_token' : 'invalid_token');
      writeReply(res, exchange, missing ? apiErrors.missingToken : apiErrors.invalidToken);
      return;
    }
    exchange.account = authentication.account.name;
    const admission = deps.admissions.admit(authentication.account, now);
    if (admission.kind !== 'pending' && admission.kind !== 'admitted') {
      deps.metrics?.admissionRefused(refusalReasons[admission.kind]);
      writeReply(res, exchange, refusal(admission), limitFigures(admission));
      return;
    }

    const owed = new OwedAnswer(res, exchange, deps, answerBody);
    res.onAborted(() => owed.aborted());
    if (admission.kind === 'admitted') {
      owed.decision = admission;
      readBody(res, limits.maxBodyBytes, (body) => owed.bodyRead(body), declaredLength);
      return;
    }
    // Waiting for a reservation: the body is read meanwhile (uWS hands it over only now).
    readBody(res, limits.maxBodyBytes, (body) => owed.bodyRead(body), declaredLength);
    admission.decided.then(
      (decided) => owed.decided(decided),
      (error: unknown) => {
        // A failed reservation's cause is logged where it was written, once, not per request waiting on it.
        if (!(error instanceof ReservationNotWritten))
          deps.log.error({ err: error, requestId: exchange.id, account: exchange.account }, 'usage count not persisted');
        owed.finish(apiErrors.countUnavailable(limits.countRetryAfterSeconds));
      },
    );
  };
}

/**
 * An admitted (or pending) request's answer, owed from admission until it is written or its
 * client goes away: a client that drops mid-body must not hold a graceful stop for the whole
 * grace period (docs/operations.md#signals). One object per request holds what closures would.
 */
class OwedAnswer {
  decision: Decision | undefined;
  private body: BodyResult | undefined;
  private owed = true;
  private gone = false;

  constructor(
    private readonly res: HttpResponse,
    private readonly exchange: Exchange,
    private readonly deps: SearchRouteDeps,
    private readonly answerBody: ReturnType<BodyAnswerer>,
  ) {
    deps.requests.begin();
  }

  aborted(): void {
    this.gone = true;
    this.settle();
  }

  bodyRead(body: BodyResult): void {
    this.body = body;
    if (this.decision) this.respond(body, this.decision);
  }

  decided(decision: Decision): void {
    this.decision = decision;
    if (this.body) this.respond(this.body, decision);
  }

  finish(reply: Reply, figures?: LimitFigures): void {
    if (!this.gone) writeReply(this.res, this.exchange, reply, figures);
    this.settle();
  }

  private respond(body: BodyResult, decision: Decision): void {
    if (decision.kind !== 'admitted') {
      this.deps.metrics?.admissionRefused(refusalReasons[decision.kind]);
      this.finish(refusal(decision), limitFigures(decision));
      return;
    }
    let reply: Reply;
    try {
      reply = this.answerBody(body, this.deps);
    } catch (error) {
      this.deps.log.error({ err: error, requestId: this.exchange.id }, 'search failed');
      this.finish(apiErrors.internal(this.exchange.id));
      return;
    }
    this.finish(reply, decision.limits);
  }

  private settle(): void {
    if (!this.owed) return;
    this.owed = false;
    this.deps.requests.end();
  }
}

const refusalReasons: Record<Exclude<Decision, { kind: 'admitted' }>['kind'], RefusalReason> = {
  quotaExhausted: 'quota_exhausted',
  rateLimited: 'rate_limited',
  noRoom: 'no_account_room',
  suspended: 'account_suspended',
};

/** The answer to a request refused at admission (its limit headers go with it). */
function refusal(decision: Exclude<Decision, { kind: 'admitted' }>): Reply {
  if (decision.kind === 'quotaExhausted') return apiErrors.quotaExhausted(decision.quota, decision.resetsOn);
  if (decision.kind === 'rateLimited') return apiErrors.rateLimited(decision.retryAfterSeconds);
  if (decision.kind === 'suspended') return apiErrors.accountSuspended;
  return apiErrors.noAccountRoom;
}

function limitFigures(decision: Decision): LimitFigures | undefined {
  return decision.kind === 'noRoom' || decision.kind === 'suspended' ? undefined : decision.limits;
}

function answer(body: BodyResult, deps: SearchRouteDeps): Reply {
  if (body.kind === 'tooLarge') return apiErrors.bodyTooLarge(limits.maxBodyBytes, body.drained);
  const validation = validateSearchText(body.text);
  if (!validation.ok) return apiErrors.invalid(validation.errors);
  const now = deps.now();
  const rendered = renderSearchResponse(validation.resources, deps.views, now);
  // docs/architecture.md#reads-are-reads: the answer is rendered first, then demand is told.
  if (rendered.wanted) deps.demand.wanted(rendered.wanted, now);
  return { status: '200 OK', body: rendered.body };
}
