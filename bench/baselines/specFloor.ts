// Baseline `spec-floor`: bare uWebSockets.js doing only what no implementation of the search
// API can skip (bench/README.md, "Baselines"): take the bearer token and digest it with
// SHA-256, read the body and parse it as JSON, and answer with the status, Content-Type,
// X-Request-Id and the six limit headers, and a body of the scenario's size. It reuses the
// service's own pieces for each of these steps, so the floor moves exactly as the service's
// unavoidable work does; everything the service does beyond it (looking the token up,
// admission, counting, validation, reading views, assembling the answer) is what the
// ratio "x spec-floor" measures.
import { nextMonthStart } from '../../src/access/calendar.js';
import { digestToken, parseAuthorization } from '../../src/auth/tokens.js';
import { limits } from '../../src/config.js';
import { readBody } from '../../src/http/body.js';
import { apiErrors } from '../../src/http/errors.js';
import { createAccessLog } from '../../src/http/accessLog.js';
import { createCors } from '../../src/http/cors.js';
import { beginExchange, writeReply, type Reply } from '../../src/http/reply.js';
import { requestIdSource } from '../../src/http/requestIds.js';
import { silentLogger } from '../../src/log.js';
import { benchAccount } from '../benchAccount.js';
import { answerSizeArgument, fixedAnswer } from './fixedAnswer.js';
import { serveUwsBaseline } from './uwsBaseline.js';

/**
 * The six limit headers of the bench account, counted per answer. The array is reused and
 * only the values that change are rewritten: the floor pays for formatting the numbers an
 * answer must carry, not for a limiter (it refuses nothing).
 */
class LimitHeaders {
  private readonly headers: Array<[string, string]>;
  private windowEndsAt = 0;
  private usedInWindow = 0;
  private usedInMonth = 0;

  constructor(
    private readonly rateLimit: number,
    private readonly windowMs: number,
    private readonly quota: number,
  ) {
    this.headers = [
      ['X-RateLimit-Limit', String(rateLimit)],
      ['X-RateLimit-Remaining', ''],
      ['X-RateLimit-Reset', ''],
      ['X-Quota-Limit', String(quota)],
      ['X-Quota-Remaining', ''],
      ['X-Quota-Reset', ''],
    ];
  }

  /** The headers of one more admitted request at `now`. */
  next(now: number): ReadonlyArray<readonly [string, string]> {
    if (now >= this.windowEndsAt) {
      this.windowEndsAt = now + this.windowMs;
      this.usedInWindow = 0;
      this.headers[2]![1] = String(Math.ceil(this.windowEndsAt / 1000));
      this.headers[5]![1] = nextMonthStart(now);
    }
    this.usedInWindow++;
    this.usedInMonth++;
    this.headers[1]![1] = String(this.rateLimit - this.usedInWindow);
    this.headers[4]![1] = String(this.quota - this.usedInMonth);
    return this.headers;
  }
}

const answer: Reply = { status: '200 OK', body: fixedAnswer(answerSizeArgument()) };
// Request ids and the answer's writing as the service does them; no CORS and no access log, which
// an implementation may leave out.
const exchanges = {
  nextRequestId: requestIdSource(),
  corsHeaders: createCors(undefined).answerHeaders,
  logAccess: createAccessLog(silentLogger),
};
const { rate, quota } = benchAccount.settings;
const limitHeaders = new LimitHeaders(rate.limit, rate.windowMs, quota);

serveUwsBaseline('spec-floor', (res, req) => {
  let aborted = false;
  res.onAborted(() => {
    aborted = true;
  });
  const exchange = beginExchange(exchanges, req);
  const credentials = parseAuthorization(req.getHeader('authorization'));
  if (credentials.kind === 'none') return writeReply(res, exchange, apiErrors.missingToken);
  // The digest is the key a token is looked up by; the floor has no accounts to look it up in.
  digestToken(credentials.secret);
  readBody(res, limits.maxBodyBytes, (body) => {
    if (aborted) return;
    if (body.kind === 'tooLarge') return writeReply(res, exchange, apiErrors.bodyTooLarge(limits.maxBodyBytes, body.drained));
    try {
      JSON.parse(body.text);
    } catch {
      return writeReply(res, exchange, apiErrors.invalid(['Request body must be valid JSON']));
    }
    writeReply(res, exchange, answer, limitHeaders.next(Date.now()));
  });
});
