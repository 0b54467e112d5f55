// Sign-in attempts, limited per account name and per client address (docs/dashboard.md#rate-limits).
// An attempt is counted before its password is checked, in one LMDB transaction (WebStore.reserveAttempt),
// so parallel attempts cannot all pass on the same count; every edge thread and every server on the
// directory counts the same attempts. From `slowAfter` counted attempts each answer is held longer, from
// `refuseAfter` refused. Once checked, the attempt is settled: a wrong password stays counted.
import { webLimits } from '../config.js';
import type { WebStore } from '../seams/webRecords/webStore.js';

/** An attempt counted and not settled yet: its keys and where each one's window began. */
export interface CountedAttempt {
  account: string;
  address: string;
  since: number[];
}

export type ThrottleVerdict = { kind: 'allow'; delayMs: number; attempt: CountedAttempt } | { kind: 'refuse'; retryAfterSeconds: number };

/** How a counted attempt ended: a wrong password (or unknown name), a right one, or never checked. */
export type AttemptOutcome = 'wrong' | 'right' | 'unchecked';

const keysOf = (account: string, address: string) => [`account:${account}`, `address:${address}`];

export class SigninThrottle {
  constructor(
    private readonly store: WebStore,
    private readonly now: () => number,
  ) {}

  /** Counts an attempt before its password is checked, or refuses it. */
  async reserve(account: string, address: string): Promise<ThrottleVerdict> {
    const { windowMs, slowAfter, delayMs, maxDelayMs, refuseAfter } = webLimits.signin;
    const now = this.now();
    const counted = await this.store.reserveAttempt(keysOf(account, address), now, { windowMs, refuseAfter });
    if (!counted.reserved) return { kind: 'refuse', retryAfterSeconds: Math.ceil((counted.windowEnds - now) / 1000) };
    const { earlier } = counted;
    return {
      kind: 'allow',
      delayMs: earlier < slowAfter ? 0 : Math.min(maxDelayMs, (earlier - slowAfter + 1) * delayMs),
      attempt: { account, address, since: counted.since },
    };
  }

  /**
   * A wrong password stays counted. A right one clears the name's count and takes the attempt back
   * from the address's (not more: the address may be guessing other names); an attempt never
   * checked (the hasher was full) is taken back from both.
   */
  async settle(attempt: CountedAttempt, outcome: AttemptOutcome): Promise<void> {
    if (outcome === 'wrong') return;
    const [accountKey, addressKey] = keysOf(attempt.account, attempt.address);
    const [accountSince, addressSince] = attempt.since;
    if (outcome === 'right') await this.store.clearFailures(accountKey!);
    else await this.store.releaseAttempt(accountKey!, accountSince!);
    await this.store.releaseAttempt(addressKey!, addressSince!);
  }
}
