// When a platform may be called next: its request budget spaces calls out evenly, a
// rate-limit answer pauses the whole platform until the platform's own reset time, and its
// circuit breaker pauses it after repeated failures (issue 5).
import { timer, type Observable, type SchedulerLike } from 'rxjs';
import type { CollectionBudget } from '../src/platforms/types.js';
import { CircuitBreaker, type BreakerPolicy } from './circuitBreaker.js';

export class PlatformGate {
  private pausedUntil = 0;
  private nextSlotAt = 0;
  private readonly spacingMs: number;
  readonly breaker: CircuitBreaker;

  constructor(budget: CollectionBudget, private readonly scheduler: SchedulerLike, breakerPolicy: BreakerPolicy) {
    this.spacingMs = Number.isFinite(budget.perMinute) ? 60_000 / budget.perMinute : 0;
    this.breaker = new CircuitBreaker(breakerPolicy, scheduler);
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
