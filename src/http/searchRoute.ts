// POST /api/v1/resources/search, its checks in the order of docs/api.md#a-45: token (401), a suspended
// account (403), quota (403), rate limit (429), body (413/422), then the answer (200).
import { limits } from '../config.js';
import type { Admission, Admissions, Decision } from '../access/admission.js';
import type { Authentication, Authenticator } from '../access/authenticator.js';
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
    if (deps.authenticator.mayCatchUp(authentication)) {
      // A token this node does not know yet: its answer waits for the cluster's word
      // (docs/design/cluster-mechanics.md#a-token-new-to-a-node); the body is read meanwhile.
      const owed = new OwedAnswer(res, exchange, deps, answerBody);
      res.onAborted(() => owed.aborted());
      readBody(res, limits.maxBodyBytes, (body) => owed.bodyRead(body), declaredLength);
      void deps.authenticator.authenticateCaughtUp(authorization, now).then((settled) => admit(settled, owed, deps));
      return;
    }
    const admission = admitting(authentication, exchange, deps, now);
    if ('refused' in admission) {
      writeReply(res, exchange, admission.refused, admission.figures);
      return;
    }
    const owed = new OwedAnswer(res, exchange, deps, answerBody);
    res.onAborted(() => owed.aborted());
    // Waiting for a reservation or not, the body is read now (uWS hands it over only now).
    readBody(res, limits.maxBodyBytes, (body) => owed.bodyRead(body), declaredLength);
    owed.admitted(admission);
  };
}

/** Admits an owed request once its token is settled, in the order of the synchronous path. */
function admit(authentication: Authentication, owed: OwedAnswer, deps: SearchRouteDeps): void {
  // A client gone meanwhile is owed nothing, and nothing is counted for it.
  if (owed.gone) return;
  const admission = admitting(authentication, owed.exchange, deps, deps.now());
  if ('refused' in admission) owed.finish(admission.refused, admission.figures);
  else owed.admitted(admission);
}

type Admitting = Extract<Admission, { kind: 'admitted' | 'pending' }> | { refused: Reply; figures?: LimitFigures | undefined };

/** The request's admission (at once or pending a reservation), or the answer refusing it; refusals are counted. */
function admitting(authentication: Authentication, exchange: Exchange, deps: SearchRouteDeps, now: number): Admitting {
  if (authentication.kind !== 'authenticated') {
    const missing = authentication.kind === 'missing';
    deps.metrics?.admissionRefused(missing ? 'missing_token' : 'invalid_token');
    return { refused: missing ? apiErrors.missingToken : apiErrors.invalidToken };
  }
  exchange.account = authentication.account.name;
  const admission = deps.admissions.admit(authentication.account, now);
  if (admission.kind === 'pending' || admission.kind === 'admitted') return admission;
  deps.metrics?.admissionRefused(refusalReasons[admission.kind]);
  return { refused: refusal(admission), figures: limitFigures(admission) };
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
  gone = false;

  constructor(
    private readonly res: HttpResponse,
    readonly exchange: Exchange,
    private readonly deps: SearchRouteDeps,
    private readonly answerBody: ReturnType<BodyAnswerer>,
  ) {
    deps.requests.begin();
  }

  /** Admitted at once, or pending a reservation: answered once both the decision and the body are in. */
  admitted(admission: Extract<Admission, { kind: 'admitted' | 'pending' }>): void {
    if (admission.kind === 'admitted') {
      this.decided(admission);
      return;
    }
    admission.decided.then(
      (decided) => this.decided(decided),
      (error: unknown) => {
        this.deps.log.error({ err: error, requestId: this.exchange.id, account: this.exchange.account }, 'usage count not persisted');
        this.finish(apiErrors.countUnavailable(limits.countRetryAfterSeconds));
      },
    );
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
