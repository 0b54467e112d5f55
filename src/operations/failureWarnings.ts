// The operator's warning that a platform's collection is failing (docs/operations.md#collection-failing):
// one warn line per platform at most every `warnEveryMs`, with the counts since the last one.
import type { Logger } from '../log.js';
import type { CollectionOutcome, PlatformCode } from '../model.js';

/** A platform's collections since its last warning. */
interface Tally {
  from: number;
  attempts: number;
  failures: number;
  lastReason: string | null;
  warnedAt: number | null;
}

/** Why a collection failed, as the console and the warning say it; null for one that did not fail. */
export const failureMessage = (outcome: CollectionOutcome): string | null => {
  if (outcome.kind === 'failed') return outcome.reason;
  if (outcome.kind === 'rateLimited') return `rate limited until ${new Date(outcome.retryAt).toISOString()}`;
  return null;
};

/**
 * Counts the collections tried and failed since the last warning and keeps the last reason, so that
 * a server without internet says so once a minute rather than once per resource at info level, or
 * not at all.
 */
export class FailureWarnings {
  private readonly tallies = new Map<PlatformCode, Tally>();

  constructor(
    private readonly log: Logger,
    private readonly now: () => number,
    private readonly everyMs: number,
  ) {}

  /** Counts one ended collection; warns when it failed and the platform's last warning is old enough. */
  ended(platform: PlatformCode, outcome: CollectionOutcome): void {
    // A deferred collection was not tried: the open breaker refused it, which its own warning says.
    if (outcome.kind === 'deferred') return;
    const now = this.now();
    let tally = this.tallies.get(platform);
    if (!tally) {
      tally = { from: now, attempts: 0, failures: 0, lastReason: null, warnedAt: null };
      this.tallies.set(platform, tally);
    }
    tally.attempts += 1;
    const reason = failureMessage(outcome);
    if (reason === null) return;
    tally.failures += 1;
    tally.lastReason = reason;
    if (tally.warnedAt !== null && now - tally.warnedAt < this.everyMs) return;
    const { attempts, failures, from } = tally;
    this.log.warn(
      { platform, attempts, failures, since: new Date(from).toISOString(), lastReason: reason },
      `collection failing on ${platform}: ${failures} of ${attempts} collection(s) failed since ${new Date(from).toISOString()}; last: ${reason}`,
    );
    this.tallies.set(platform, { from: now, attempts: 0, failures: 0, lastReason: null, warnedAt: now });
  }
}
