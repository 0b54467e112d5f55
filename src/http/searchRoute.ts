// POST /api/v1/resources/search, its checks in the order of docs/api.md#a-45: token (401), a suspended
// account (403), quota (403), rate limit (429), body (413/422), then the answer (200).
import { limits } from '../config.js';
import type { Admissions, Decision } from '../access/admission.js';
import type { Authentication, Authenticator } from '../access/authenticator.js';
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
    if (deps.authenticator.mayCatchUp(authentication)) {
      // A token this node does not know yet: its answer waits for the cluster's word
      // (docs/design/cluster.md#a-token-new-to-a-node); the body is read meanwhile.
      const owed = owedAnswer(res, exchange, deps, answerBody, declaredLength);
      void deps.authenticator.authenticateCaughtUp(authorization, now).then((settled) => admitSettled(settled, owed, deps));
      return;
    }
    if (authentication.kind !== 'authenticated') {
      writeReply(res, exchange, tokenRefusal(authentication, deps));
      return;
    }
    exchange.account = authentication.account.name;
    const owed = owedAnswer(res, exchange, deps, answerBody, declaredLength);
    // docs/http.md#pipelining: admitted (and so counted) only once the bytes this request came
    // with are parsed. A request behind it in them makes uWebSockets.js close the connection
    // first, and nothing is counted for an answer the client would never read.
    setImmediate(admit, owed, authentication.account);
  };
}

/** An answer owed from now on, its body read as it arrives. */
function owedAnswer(
  res: HttpResponse,
  exchange: Exchange,
  deps: SearchRouteDeps,
  answerBody: ReturnType<BodyAnswerer>,
  declaredLength: number,
) {
  const owed = new OwedAnswer(res, exchange, deps, answerBody);
  res.onAborted(() => owed.aborted());
  readBody(res, limits.maxBodyBytes, (body) => owed.bodyRead(body), declaredLength);
  return owed;
}

function admit(owed: OwedAnswer, account: AdmittedAccount): void {
  owed.admit(account);
}

/** Admits a request once its token is settled with the cluster; by then the bytes it came with are parsed. */
function admitSettled(authentication: Authentication, owed: OwedAnswer, deps: SearchRouteDeps): void {
  if (authentication.kind !== 'authenticated') {
    owed.finish(tokenRefusal(authentication, deps));
    return;
  }
  owed.exchange.account = authentication.account.name;
  owed.admit(authentication.account);
}

/** The 401 of a request without a token the service knows, counted as refused. */
function tokenRefusal(authentication: Exclude<Authentication, { kind: 'authenticated' }>, deps: SearchRouteDeps): Reply {
  const missing = authentication.kind === 'missing';
  deps.metrics?.admissionRefused(missing ? 'missing_token' : 'invalid_token');
  return missing ? apiErrors.missingToken : apiErrors.invalidToken;
}

type AdmittedAccount = Parameters<Admissions['admit']>[0];

/**
 * An authenticated request's answer, owed from then until it is written or its client goes
 * away, through its admission (which waits for the bytes it came with to be parsed): a client that drops mid-body must not hold a graceful stop for the whole
 * grace period (docs/operations.md#signals). One object per request holds what closures would.
 */
class OwedAnswer {
  private decision: Decision | undefined;
  private body: BodyResult | undefined;
  private owed = true;
  private gone = false;

  constructor(
    private readonly res: HttpResponse,
    readonly exchange: Exchange,
    private readonly deps: SearchRouteDeps,
    private readonly answerBody: ReturnType<BodyAnswerer>,
  ) {
    deps.requests.begin();
  }

  /** Admits the request, unless its client already left: a refusal is written now, a decision waited for. */
  admit(account: AdmittedAccount): void {
    if (this.gone) return;
    const admission = this.deps.admissions.admit(account, this.deps.now(), this);
    if (admission.kind === 'pending') {
      admission.decided.then(
        (decided) => this.decided(decided),
        (error: unknown) => {
          // A failed reservation's cause is logged where it was written, once, not per request waiting on it.
          if (!(error instanceof ReservationNotWritten))
            this.deps.log.error({ err: error, requestId: this.exchange.id, account: this.exchange.account }, 'usage count not persisted');
          this.finish(apiErrors.countUnavailable(limits.countRetryAfterSeconds));
        },
      );
    } else if (admission.kind === 'admitted') {
      this.decided(admission);
    } else {
      this.deps.metrics?.admissionRefused(refusalReasons[admission.kind]);
      this.finish(refusal(admission), limitFigures(admission));
    }
  }

  aborted(): void {
    this.gone = true;
    this.settle();
  }

  /** docs/http.md#pipelining: a request whose client left while it waited for its count is not counted. */
  wanted(): boolean {
    return !this.gone;
  }

  bodyRead(body: BodyResult): void {
    this.body = body;
    if (this.decision) this.respond(body, this.decision);
  }

  /** undefined: the client left before the request's turn, and nothing was counted. */
  decided(decision: Decision | undefined): void {
    if (decision === undefined) {
      this.settle();
      return;
    }
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
