// When a platform may be called next: its request budget spaces calls out evenly, a
// rate-limit answer pauses the whole platform until the platform's own reset time, and its
// circuit breaker pauses it after repeated failures.
import { timer, type Observable, type SchedulerLike } from 'rxjs';
import { CircuitBreaker, type BreakerChange, type BreakerPolicy } from './circuitBreaker.js';

/** How hard a platform may be called (each collector call counts once). */
export interface CallBudget {
  /** Collector calls (batches) in flight at once. */
  concurrency: number;
  /** Collector calls per minute; Infinity for no spacing. */
  perMinute: number;
}

export class PlatformGate {
  private pausedUntil = 0;
  private nextSlotAt = 0;
  private readonly spacingMs: number;
  readonly breaker: CircuitBreaker;

  constructor(
    budget: CallBudget,
    private readonly scheduler: SchedulerLike,
    breakerPolicy: BreakerPolicy,
    onBreakerChange?: (change: BreakerChange) => void,
  ) {
    this.spacingMs = Number.isFinite(budget.perMinute) ? 60_000 / budget.perMinute : 0;
    this.breaker = new CircuitBreaker(breakerPolicy, scheduler, onBreakerChange);
  }

  /** Emits once when this call may go out, and books its slot in the budget. */
  admission(): Observable<unknown> {
    const now = this.scheduler.now();
    const at = Math.max(now, this.pausedUntil, this.nextSlotAt);
    this.nextSlotAt = at + this.spacingMs;
    return timer(at - now, this.scheduler);
  }

  pauseUntil(at: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, at);
  }
}
