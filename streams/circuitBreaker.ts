// A per-platform circuit breaker (docs/platforms.md#circuit-breaker): a platform that keeps failing
// is refused at once, costing neither connections nor time, until a trial call succeeds.
import { defer, finalize, of, tap, type Observable, type SchedulerLike } from 'rxjs';

export interface BreakerPolicy {
  /** Consecutive failed calls that open the breaker. */
  failureThreshold: number;
  /** How long an opened breaker refuses calls before it lets one trial through. */
  cooldownMs: number;
  /** Each failed trial doubles the cooldown, up to this. */
  maxCooldownMs: number;
}

export type BreakerState = 'closed' | 'open' | 'halfOpen';

/** What an observer hears when the breaker opens (with the time of its next trial) or closes. */
export type BreakerChange = { state: 'open'; at: number; trialAt: number; failures: number } | { state: 'closed'; at: number };

/**
 * Pauses the platform, not its resources (docs/api.md#a-24 retries those, with backoff). After a
 * cooldown one trial call probes it; failure pauses it again for twice as long, up to a cap. Time
 * comes from the injected scheduler (virtual in tests).
 */
export class CircuitBreaker {
  private failures = 0;
  private openUntil = 0;
  private cooldownMs: number;
  private current: BreakerState = 'closed';

  constructor(
    private readonly policy: BreakerPolicy,
    private readonly scheduler: SchedulerLike,
    private readonly onChange: (change: BreakerChange) => void = () => undefined,
  ) {
    this.cooldownMs = policy.cooldownMs;
  }

  /**
   * Runs `call` if the breaker lets it through, and records whether it failed; otherwise
   * answers `refused(retryAt)` at once, `retryAt` being when a call may be let through again:
   * the next trial, or (while a trial is out) one base cooldown from now. While half-open
   * only the trial call's result counts.
   */
  guard<T>(call: Observable<T>, isFailure: (result: T) => boolean, refused: (retryAt: number) => T): Observable<T> {
    return defer(() => {
      const admission = this.admit();
      if (admission === 'refused') return of(refused(this.retryAt()));
      let settled = false;
      return call.pipe(
        tap((result) => {
          settled = true;
          this.record(admission, isFailure(result));
        }),
        // A trial cancelled before it answered (shutdown) proves nothing: the next call probes.
        finalize(() => {
          if (!settled && admission === 'trial') this.reopen(this.scheduler.now(), false);
        }),
      );
    });
  }

  private retryAt(): number {
    return this.current === 'open' ? this.openUntil : this.scheduler.now() + this.policy.cooldownMs;
  }

  private admit(): 'call' | 'trial' | 'refused' {
    if (this.current === 'closed') return 'call';
    if (this.current === 'open' && this.scheduler.now() >= this.openUntil) {
      this.current = 'halfOpen';
      return 'trial';
    }
    return 'refused';
  }

  private record(admission: 'call' | 'trial', failed: boolean): void {
    if (admission === 'trial') {
      if (failed) {
        this.cooldownMs = Math.min(this.policy.maxCooldownMs, this.cooldownMs * 2);
        this.reopen(this.scheduler.now() + this.cooldownMs);
      } else {
        this.close();
      }
      return;
    }
    // Calls that were already in flight when the breaker opened do not move it.
    if (this.current !== 'closed') return;
    if (!failed) {
      this.failures = 0;
      return;
    }
    this.failures += 1;
    if (this.failures >= this.policy.failureThreshold) this.reopen(this.scheduler.now() + this.cooldownMs);
  }

  /** `announce` is false for a trial cancelled unanswered: nothing was learned, nothing to tell. */
  private reopen(until: number, announce = true): void {
    this.current = 'open';
    this.openUntil = until;
    if (announce) this.onChange({ state: 'open', at: this.scheduler.now(), trialAt: until, failures: this.failures });
  }

  private close(): void {
    this.current = 'closed';
    this.failures = 0;
    this.cooldownMs = this.policy.cooldownMs;
    this.onChange({ state: 'closed', at: this.scheduler.now() });
  }
}
