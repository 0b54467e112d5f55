// Per-account rate limit over fixed windows aligned to the epoch, so that the reset
// time in X-RateLimit-Reset is the same for every token of the account (decisions 16).
import type { RatePolicy } from '../config.js';

export interface RateWindow {
  limit: number;
  remaining: number;
  /** When the current window ends, in ms since the epoch. */
  resetAt: number;
}

interface WindowCount {
  start: number;
  windowMs: number;
  used: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, WindowCount>();

  /** The state of the account's window, without counting anything. */
  peek(account: string, policy: RatePolicy, now: number): RateWindow {
    const window = this.current(account, policy, now);
    return { limit: policy.limit, remaining: Math.max(0, policy.limit - window.used), resetAt: window.start + policy.windowMs };
  }

  hit(account: string, policy: RatePolicy, now: number): void {
    this.current(account, policy, now).used += 1;
  }

  private current(account: string, policy: RatePolicy, now: number): WindowCount {
    const start = now - (now % policy.windowMs);
    let window = this.windows.get(account);
    if (!window || window.start !== start || window.windowMs !== policy.windowMs) {
      window = { start, windowMs: policy.windowMs, used: 0 };
      this.windows.set(account, window);
    }
    return window;
  }
}
