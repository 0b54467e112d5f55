// When an upstream (a platform, or a federated platform's server) may be called next
// (docs/architecture.md#collection-path): its budget spaces calls out evenly; a rate-limit answer
// (until the upstream's reset) or its breaker pauses it.
import { defer, mergeMap, Observable, of, timer, type SchedulerLike } from 'rxjs';
import type { CallBudget } from '../src/model.js';
import type { UpstreamKey } from './upstreamKey.js';
import { CircuitBreaker, type BreakerChange, type BreakerPolicy } from './circuitBreaker.js';

/** A call's turn in a shared budget: taken, or none left before `retryAt` (epoch ms). */
export type CallTurn = { taken: true } | { taken: false; retryAt: number };

/**
 * A seam: an upstream's calls shared among nodes, which together make at most `perMinute` a
 * minute (docs/design/cluster.md#upstream-budgets-cluster-wide). Each call takes its turn here after
 * its slot on this node. A node alone shares with nobody (streams/unsharedCallBudget.ts, which
 * answers at once); a cluster's asks NATS (src/seams/callBudget/clusterCallBudget.ts). Every
 * implementation passes src/seams/callBudget/callBudget.contract.ts.
 */
export interface SharedCallBudget {
  takeCall(upstream: UpstreamKey, perMinute: number): CallTurn | Promise<CallTurn>;
}

export interface PlatformGateOptions {
  upstream: UpstreamKey;
  budget: CallBudget;
  scheduler: SchedulerLike;
  breaker: BreakerPolicy;
  onBreakerChange?: ((change: BreakerChange) => void) | undefined;
  /** The budget this node shares with the others (with nobody, alone). */
  shared: SharedCallBudget;
}

export class PlatformGate {
  private pausedUntil = 0;
  private nextSlotAt = 0;
  private readonly spacingMs: number;
  readonly breaker: CircuitBreaker;

  constructor(private readonly options: PlatformGateOptions) {
    this.spacingMs = Number.isFinite(options.budget.perMinute) ? 60_000 / options.budget.perMinute : 0;
    this.breaker = new CircuitBreaker(options.breaker, options.scheduler, options.onBreakerChange);
  }

  /**
   * Emits once when this call may go out, and books its slot in the budget. A pause that came
   * while the call waited for its slot holds it until the pause ends, in a new slot. With a
   * shared budget the call then takes its turn there; when the cluster has no call left this
   * window it books a slot after that, and when a pause came while it asked, the turn it took is
   * left unspent.
   */
  admission(): Observable<unknown> {
    return defer(() => {
      const now = this.options.scheduler.now();
      const at = Math.max(now, this.pausedUntil, this.nextSlotAt);
      this.nextSlotAt = at + this.spacingMs;
      return timer(at - now, this.options.scheduler).pipe(mergeMap(() => this.turn()));
    });
  }

  private turn(): Observable<unknown> {
    const { shared, upstream, budget } = this.options;
    if (this.paused()) return this.admission();
    // An infinite budget (the emulator's) has nothing to share.
    if (!Number.isFinite(budget.perMinute)) return of(true);
    const answer = shared.takeCall(upstream, budget.perMinute);
    // A turn answered at once is taken in the same tick: a node alone adds no wait to its calls.
    const turn$ =
      'taken' in answer
        ? of(answer)
        : new Observable<CallTurn>((subscriber) => {
            answer.then(
              (turn) => {
                subscriber.next(turn);
                subscriber.complete();
              },
              (error: unknown) => subscriber.error(error),
            );
          });
    return turn$.pipe(
      mergeMap((turn) => {
        if (!turn.taken) this.nextSlotAt = Math.max(this.nextSlotAt, turn.retryAt);
        else if (!this.paused()) return of(turn);
        return this.admission();
      }),
    );
  }

  private paused(): boolean {
    return this.options.scheduler.now() < this.pausedUntil;
  }

  pauseUntil(at: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, at);
  }
}
