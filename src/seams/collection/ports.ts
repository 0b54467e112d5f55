// The two seams of collection (docs/architecture.md#the-seams): the resource side asks for
// collections through a CollectionQueue and receives their results through an OutcomeSink.
import type { Observable } from 'rxjs';
import type { CollectionOutcome } from '../../model.js';

/** One delivery of one request. Give the same object back to `ack` or `release`. */
export interface Lease {
  readonly key: string;
  /** 1 on the first delivery, then one more on each redelivery. */
  readonly delivery: number;
}

/**
 * Shaped so that a durable, redelivering queue (a JetStream work queue) fits: work is leased,
 * acknowledged once its result is recorded, and delivered again if it never is.
 */
export interface CollectionQueue {
  /**
   * Asks for the resource `key` to be collected. A key already waiting, or leased and not yet
   * acknowledged, is not queued again: the collection coming or under way answers this request.
   */
  request(key: string): Promise<void>;
  /**
   * Takes up to `limit` waiting requests (possibly none), oldest first, each leased to the caller.
   * A lease neither acknowledged nor released before it expires is delivered again.
   */
  take(limit: number): Promise<Lease[]>;
  /** The lease's work is done: it is never delivered again. */
  ack(lease: Lease): Promise<void>;
  /** The lease's work is given back undone: it is delivered again at once. */
  release(lease: Lease): Promise<void>;
  /** Emits when work may be waiting (a request arrived). Takers also poll, for expired leases. */
  readonly waiting: Observable<void>;
}

export interface OutcomeSink {
  /**
   * Records the platform's answer for `key`. Resolves once it is durable (or dropped because the
   * resource is unknown); rejects when it could not be recorded.
   */
  deliver(key: string, outcome: CollectionOutcome): Promise<void>;
  /** The collection of `key` was given up unanswered (a stop): make the resource due again now. */
  abandoned(key: string): Promise<void>;
}

/**
 * The collection side's view of the work registry (docs/architecture.md#the-work-registry):
 * a resource is claimed while it is being collected, so that it is never collected twice at once.
 */
export interface CollectionClaims {
  /** False when `key` is already being collected. */
  claimCollection(key: string): boolean;
  releaseCollection(key: string): void;
  /** Resources being collected now. */
  readonly collecting: number;
}
