// The collection loop: leased work from the collection queue, as room allows, through the collection pipeline to
// the outcome sink, each lease acknowledged once its result is recorded (docs/architecture.md#the-path-of-a-collection).
import { merge, Subject, timer, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import type { Health } from '../health.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import { type CollectionResult, parseResourceKey } from '../model.js';
import type { CollectionClaims, CollectionQueue, Lease, OutcomeSink } from '../seams/collection/ports.js';

export interface CollectionLoopOptions {
  queue: CollectionQueue;
  sink: OutcomeSink;
  claims: CollectionClaims;
  /** Keys in, one result per key out (streams/collection.ts). Unsubscribing aborts the calls out. */
  collect(keys: Observable<string>): Observable<CollectionResult>;
  /** Most resources collected at once. */
  maxCollecting: number;
  /** How often the queue is asked for work besides its own signal (expired leases come back so). */
  pollMs: number;
  /** How long after a failure the pipeline is started again. */
  restartDelayMs: number;
  scheduler: SchedulerLike;
  log: Logger;
  health: Health;
  /** Told of every collection that ends; none when absent. */
  metrics?: Pick<Metrics, 'collectionEnded'> | undefined;
  /**
   * Whether an outcome's error is a commit the store refused (a full disk), which the store
   * reports once itself (docs/storage.md#a-full-disk): not logged or reported again here.
   */
  refusedByStore?: (error: unknown) => boolean;
}

export interface CollectionLoop {
  /** Takes no more work; waits up to `graceMs` for the collections out, then gives the rest back. */
  stop(graceMs: number): Promise<void>;
}

/** Health components this loop reports under. */
export const collectionHealth = { pipeline: 'collection', outcomes: 'collection outcomes', queue: 'collection queue' } as const;

export function startCollectionLoop(options: CollectionLoopOptions): CollectionLoop {
  return new Loop(options);
}

class Loop implements CollectionLoop {
  /** Leases whose collection is out and whose result has not arrived, by key. */
  private readonly held = new Map<string, Lease>();
  private delivering = 0;
  private taking = false;
  private takeAgain = false;
  private stopping = false;
  private demand: Subject<string> | undefined;
  private pipeline: Subscription | undefined;
  private restart: Subscription | undefined;
  private readonly wake: Subscription;
  private onIdle: (() => void) | undefined;

  constructor(private readonly options: CollectionLoopOptions) {
    this.startPipeline();
    this.wake = merge(options.queue.waiting, timer(0, options.pollMs, options.scheduler)).subscribe(() => this.take());
  }

  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    this.wake.unsubscribe();
    this.restart?.unsubscribe();
    if (this.held.size > 0 || this.delivering > 0) {
      let graceOver: Subscription | undefined;
      await new Promise<void>((resolve) => {
        this.onIdle = resolve;
        graceOver = this.options.scheduler.schedule(resolve, graceMs);
      });
      graceOver?.unsubscribe();
    }
    this.onIdle = undefined;
    // Unsubscribing aborts the upstream calls still out; their resources are given back.
    this.pipeline?.unsubscribe();
    const abandoned = [...this.held.values()];
    this.held.clear();
    await Promise.all(abandoned.map((lease) => this.giveBack(lease)));
  }

  private startPipeline(): void {
    const demand = new Subject<string>();
    this.demand = demand;
    this.pipeline = this.options.collect(demand).subscribe({
      next: (result) => this.record(result),
      error: (error: unknown) => this.pipelineFailed(error),
    });
  }

  private take(): void {
    if (this.stopping || !this.demand) return;
    if (this.taking) {
      this.takeAgain = true;
      return;
    }
    const limit = this.options.maxCollecting - this.options.claims.collecting;
    if (limit <= 0) return;
    this.taking = true;
    this.options.queue.take(limit).then(
      (leases) => {
        this.taking = false;
        this.options.health.clear(collectionHealth.queue);
        for (const lease of leases) this.begin(lease);
        if (this.takeAgain) {
          this.takeAgain = false;
          this.take();
        }
      },
      (error: unknown) => {
        this.taking = false;
        this.problem(collectionHealth.queue, 'collection queue refused a take', error);
      },
    );
  }

  private begin(lease: Lease): void {
    const { queue, claims } = this.options;
    if (this.stopping || !this.demand) {
      this.settleLease(queue.release(lease));
      return;
    }
    // Already being collected: that collection answers this request too.
    if (!claims.claimCollection(lease.key)) {
      this.settleLease(queue.ack(lease));
      return;
    }
    this.held.set(lease.key, lease);
    this.demand.next(lease.key);
  }

  private record({ key, outcome }: CollectionResult): void {
    const lease = this.held.get(key);
    if (!lease) return;
    this.held.delete(key);
    this.delivering++;
    const { sink, queue, claims, health, log } = this.options;
    this.options.metrics?.collectionEnded(parseResourceKey(key).platform, outcome.kind);
    if (outcome.kind === 'failed') log.info({ resource: key, reason: outcome.reason }, 'collection failed');
    sink
      .deliver(key, outcome)
      .then(
        () => {
          health.clear(collectionHealth.outcomes);
          health.clear(collectionHealth.pipeline);
        },
        // Not redelivered now: the resource's persisted lease brings it back once it ends, and a
        // store that keeps failing is not hammered meanwhile.
        (error: unknown) => this.problem(collectionHealth.outcomes, `collection result for ${key} not recorded`, error),
      )
      .finally(() => {
        this.delivering--;
        claims.releaseCollection(key);
        this.settleLease(queue.ack(lease));
        if (this.delivering === 0 && this.held.size === 0) this.onIdle?.();
        this.take();
      });
  }

  private pipelineFailed(error: unknown): void {
    this.problem(collectionHealth.pipeline, 'collection pipeline failed; it restarts', error);
    this.demand = undefined;
    this.pipeline = undefined;
    for (const lease of this.held.values()) {
      this.options.claims.releaseCollection(lease.key);
      this.settleLease(this.options.queue.release(lease));
    }
    this.held.clear();
    if (this.stopping) return;
    this.restart = this.options.scheduler.schedule(() => {
      this.startPipeline();
      this.take();
    }, this.options.restartDelayMs);
  }

  private async giveBack(lease: Lease): Promise<void> {
    try {
      await this.options.sink.abandoned(lease.key);
    } catch (error) {
      this.problem(collectionHealth.outcomes, `abandoned collection of ${lease.key} not recorded`, error);
    }
    this.options.claims.releaseCollection(lease.key);
    await this.options.queue
      .release(lease)
      .catch((error: unknown) => this.problem(collectionHealth.queue, 'collection queue refused a release', error));
  }

  private settleLease(settled: Promise<void>): void {
    settled.catch((error: unknown) => this.problem(collectionHealth.queue, 'collection queue refused an acknowledgement', error));
  }

  private problem(component: string, message: string, error: unknown): void {
    // A commit the store refused is reported once by the store (docs/storage.md#a-full-disk); the
    // outcome is not lost: its resource stays due and is collected again.
    if (this.options.refusedByStore?.(error)) return;
    this.options.log.error({ err: error }, message);
    this.options.health.report(component, `${message}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
