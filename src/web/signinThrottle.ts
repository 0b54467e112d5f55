// Sign-in attempts, limited per account name and per client address (docs/dashboard.md#rate-limits).
// Failures are counted in LMDB, so every edge thread and every server on the directory counts the
// same attempts: from `slowAfter` failures each answer is held longer, from `refuseAfter` refused.
import { webLimits } from '../config.js';
import type { WebStore } from '../seams/webRecords/webStore.js';

export type ThrottleVerdict = { kind: 'allow'; delayMs: number } | { kind: 'refuse'; retryAfterSeconds: number };

const keysOf = (account: string, address: string) => [`account:${account}`, `address:${address}`];

export class SigninThrottle {
  constructor(
    private readonly store: WebStore,
    private readonly now: () => number,
  ) {}

  /** What to do with an attempt before its password is checked. */
  verdict(account: string, address: string): ThrottleVerdict {
    const { windowMs, slowAfter, delayMs, maxDelayMs, refuseAfter } = webLimits.signin;
    const now = this.now();
    this.store.refresh();
    let failures = 0;
    let windowEnds = now;
    for (const key of keysOf(account, address)) {
      const attempts = this.store.attempts(key);
      if (!attempts || now - attempts.since >= windowMs || attempts.failures <= failures) continue;
      failures = attempts.failures;
      windowEnds = attempts.since + windowMs;
    }
    if (failures >= refuseAfter) return { kind: 'refuse', retryAfterSeconds: Math.ceil((windowEnds - now) / 1000) };
    return { kind: 'allow', delayMs: failures < slowAfter ? 0 : Math.min(maxDelayMs, (failures - slowAfter + 1) * delayMs) };
  }

  async failed(account: string, address: string): Promise<void> {
    for (const key of keysOf(account, address)) await this.store.countFailure(key, this.now(), webLimits.signin.windowMs);
  }

  /** A right password clears the name's count; the address keeps its own (it may be guessing others). */
  async succeeded(account: string): Promise<void> {
    await this.store.clearFailures(`account:${account}`);
  }
}
