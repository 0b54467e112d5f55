// Baseline `spec-floor`: bare uWebSockets.js doing only what no implementation of the search API can
// skip, each step with the service's own piece, so it moves as that work does (bench/README.md#baselines).
import { nextMonthStart } from '../../src/access/calendar.js';
import { commonSearchFields } from '../../src/api/commonSearchBody.js';
import type { LimitFigures } from '../../src/access/limitHeaders.js';
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
 * The six limit headers' figures for the bench account, counted per answer. The object is
 * reused and only the figures that change are rewritten: the floor pays for formatting the
 * numbers an answer must carry, not for a limiter (it refuses nothing).
 */
class LimitCounter {
  private readonly figures: LimitFigures;
  private windowEndsAt = 0;
  private usedInWindow = 0;
  private usedInMonth = 0;

  constructor(
    private readonly windowMs: number,
    rateLimit: number,
    quota: number,
  ) {
    this.figures = { rateLimit, rateRemaining: 0, rateReset: 0, quota, quotaRemaining: 0, quotaResetsOn: '' };
  }

  /** The figures of one more admitted request at `now`. */
  next(now: number): LimitFigures {
    const figures = this.figures;
    if (now >= this.windowEndsAt) {
      this.windowEndsAt = now + this.windowMs;
      this.usedInWindow = 0;
      figures.rateReset = Math.ceil(this.windowEndsAt / 1000);
      figures.quotaResetsOn = nextMonthStart(now);
    }
    this.usedInWindow++;
    this.usedInMonth++;
    figures.rateRemaining = figures.rateLimit - this.usedInWindow;
    figures.quotaRemaining = (figures.quota ?? 0) - this.usedInMonth;
    return figures;
  }
}

// As bytes, as the service writes its answers (src/api/searchResponse.ts): uWS copies them without encoding.
const answer: Reply = { status: '200 OK', body: Buffer.from(fixedAnswer(answerSizeArgument())) };
// Request ids and the answer's writing as the service does them; no CORS and no access log, which
// an implementation may leave out.
const exchanges = {
  nextRequestId: requestIdSource(),
  corsHeaders: createCors(undefined).answerHeaders,
  logAccess: createAccessLog(silentLogger),
};
const { rate, quota } = benchAccount.settings;
const limitCounter = new LimitCounter(rate.windowMs, rate.limit, quota);

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
    // Parsed as the service parses it: the common shape by its reader, anything else by JSON.parse.
    if (commonSearchFields(body.text) === undefined) {
      try {
        JSON.parse(body.text);
      } catch {
        return writeReply(res, exchange, apiErrors.invalid(['Request body must be valid JSON']));
      }
    }
    writeReply(res, exchange, answer, limitCounter.next(Date.now()));
  });
});
