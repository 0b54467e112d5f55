// How a collection outcome enters the machine: rate limits are failures that carry the
// platform's own retry time (docs/api.md#a-24, docs/api.md#a-26); a deferral (the platform paused by its
// breaker) is no attempt at all; time and jitter are supplied by the caller.
import type { CollectionOutcome } from '../src/model.js';
import type { ResourceEvent } from './resource.js';

export function eventForOutcome(outcome: CollectionOutcome, at: number, jitter: number): ResourceEvent {
  switch (outcome.kind) {
    case 'found':
      return { type: 'COLLECTED', at, datapoints: outcome.datapoints };
    case 'notFound':
      return { type: 'NOT_FOUND', at };
    case 'rateLimited':
      return { type: 'FAILED', at, reason: 'rate limited by the platform', jitter, retryAt: outcome.retryAt };
    case 'failed':
      return { type: 'FAILED', at, reason: outcome.reason, jitter };
    case 'deferred':
      return { type: 'DEFERRED', at, until: outcome.until };
  }
}
