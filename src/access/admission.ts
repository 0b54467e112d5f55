// The checks between a valid token and the request body (decisions 15): quota (403), then
// rate limit (429); a request that passes both is counted, durably, against both.
import type { AccountRecord } from '../store/accountStore.js';
import { nextMonthStart } from './calendar.js';
import type { QuotaMeter } from './quotaMeter.js';
import type { RateLimiter } from './rateLimiter.js';

export type Admission =
  | { kind: 'admitted'; headers: Array<[string, string]>; counted: Promise<boolean> }
  | { kind: 'quotaExhausted'; headers: Array<[string, string]>; quota: number; resetsOn: string }
  | { kind: 'rateLimited'; headers: Array<[string, string]>; retryAfterSeconds: number };

export class Admissions {
  constructor(private readonly quota: QuotaMeter, private readonly rate: RateLimiter) {}

  admit(account: AccountRecord, now: number): Admission {
    const used = this.quota.used(account.name, now);
    const window = this.rate.peek(account.name, account.rate, now);
    const resetsOn = nextMonthStart(now);
    const quotaLeft = account.quota === null ? null : Math.max(0, account.quota - used);

    if (quotaLeft === 0) {
      return {
        kind: 'quotaExhausted',
        headers: limitHeaders(window.limit, window.remaining, window.resetAt, account.quota, 0, resetsOn),
        quota: account.quota!,
        resetsOn,
      };
    }
    if (window.remaining === 0) {
      return {
        kind: 'rateLimited',
        headers: limitHeaders(window.limit, 0, window.resetAt, account.quota, quotaLeft, resetsOn),
        retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)),
      };
    }
    this.rate.hit(account.name, account.rate, now);
    const counted = this.quota.count(account.name, now);
    return {
      kind: 'admitted',
      headers: limitHeaders(
        window.limit,
        window.remaining - 1,
        window.resetAt,
        account.quota,
        quotaLeft === null ? null : quotaLeft - 1,
        resetsOn,
      ),
      counted,
    };
  }
}

function limitHeaders(
  rateLimit: number,
  rateRemaining: number,
  rateResetAt: number,
  quota: number | null,
  quotaRemaining: number | null,
  quotaResetsOn: string,
): Array<[string, string]> {
  const headers: Array<[string, string]> = [
    ['X-RateLimit-Limit', String(rateLimit)],
    ['X-RateLimit-Remaining', String(rateRemaining)],
    ['X-RateLimit-Reset', String(Math.ceil(rateResetAt / 1000))],
  ];
  if (quota !== null) {
    headers.push(
      ['X-Quota-Limit', String(quota)],
      ['X-Quota-Remaining', String(quotaRemaining)],
      ['X-Quota-Reset', quotaResetsOn],
    );
  }
  return headers;
}
