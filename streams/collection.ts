// Demand -> per-platform batching, budget and pause -> collector call with a timeout ->
// one result per resource. Functions of observables with an injectable scheduler, so
// timeouts, pauses and budgets are tested in virtual time.
import { setMaxListeners } from 'node:events';
import {
  Observable, bufferTime, filter, from, groupBy, map, mergeMap, of, timeout, type SchedulerLike,
} from 'rxjs';
import { failed, parseResourceKey, type CollectionOutcome, type PlatformCode, type ResourceRef } from '../src/model.js';
import type { PlatformCollector } from '../src/platforms/collectors.js';
import { collectionDefaults } from '../src/config.js';
import type { BreakerPolicy } from './circuitBreaker.js';
import { PlatformGate } from './platformGate.js';

export interface CollectionResult {
  key: string;
  outcome: CollectionOutcome;
}

export interface CollectionOptions {
  collectors: ReadonlyMap<PlatformCode, PlatformCollector>;
  scheduler: SchedulerLike;
  timeoutMs: number;
  batchWindowMs: number;
  /** Per-platform circuit breaker; collectionDefaults.breaker when absent. */
  breaker?: BreakerPolicy;
}

export function collectResources(demand$: Observable<string>, options: CollectionOptions): Observable<CollectionResult> {
  return demand$.pipe(
    groupBy((key) => parseResourceKey(key).platform),
    mergeMap((platformDemand$) => {
      const platform = options.collectors.get(platformDemand$.key)!;
      const gate = new PlatformGate(platform.budget, options.scheduler, options.breaker ?? collectionDefaults.breaker);
      return platformDemand$.pipe(
        batches(platform.collector.maxBatch, options),
        mergeMap(
          (keys) => gate.admission().pipe(mergeMap(() => callCollector(platform, keys, options, gate))),
          platform.budget.concurrency,
        ),
      );
    }),
  );
}

function batches(maxBatch: number, options: CollectionOptions) {
  return (keys$: Observable<string>): Observable<string[]> =>
    maxBatch <= 1
      ? keys$.pipe(map((key) => [key]))
      : keys$.pipe(
          bufferTime(options.batchWindowMs, null, maxBatch, options.scheduler),
          filter((keys) => keys.length > 0),
        );
}

function callCollector(
  platform: PlatformCollector,
  keys: string[],
  options: CollectionOptions,
  gate: PlatformGate,
): Observable<CollectionResult> {
  const refs: ResourceRef[] = keys.map(parseResourceKey);
  // Unsubscribing (a timeout, a shutdown) aborts the upstream request.
  const call = new Observable<CollectionOutcome[]>((subscriber) => {
    const abort = new AbortController();
    // One signal serves every upstream request of a batch (up to 100 listeners).
    setMaxListeners(0, abort.signal);
    let answered = false;
    const answer = (outcomes: CollectionOutcome[]) => {
      answered = true;
      subscriber.next(outcomes);
      subscriber.complete();
    };
    platform.collector.collect(refs, abort.signal).then(answer, (error: unknown) =>
      answer(refs.map(() => failed(`collector threw: ${String(error)}`))),
    );
    // Aborting builds an AbortError with its stack: only a call still waiting is worth it.
    return () => {
      if (!answered) abort.abort();
    };
  }).pipe(
    timeout({
      first: options.timeoutMs,
      scheduler: options.scheduler,
      with: () => of(refs.map(() => failed(`no answer within ${options.timeoutMs} ms`))),
    }),
  );
  // A call fails the breaker when the platform answered nothing usable for any resource.
  const allFailed = (outcomes: CollectionOutcome[]) => outcomes.every((outcome) => outcome.kind === 'failed');
  const refused = () => refs.map(() => failed(`${refs[0]!.platform} paused by its circuit breaker after repeated failures`));
  return gate.breaker.guard(call, allFailed, refused).pipe(
    mergeMap((outcomes) => {
      for (const outcome of outcomes) if (outcome.kind === 'rateLimited') gate.pauseUntil(outcome.retryAt);
      return from(keys.map((key, index) => ({ key, outcome: outcomes[index] ?? failed('collector returned no outcome') })));
    }),
  );
}
