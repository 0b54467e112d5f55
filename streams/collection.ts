// Demand -> per-platform batching, budget and pause -> collector call with a timeout -> one result
// per resource (docs/architecture.md#collection-path), its scheduler injectable for virtual time.
import { setMaxListeners } from 'node:events';
import {
  Observable,
  bufferTime,
  concat,
  defer,
  filter,
  finalize,
  from,
  groupBy,
  map,
  mergeMap,
  of,
  timeout,
  type SchedulerLike,
} from 'rxjs';
import {
  type CollectingPlatform,
  type CollectionOutcome,
  type CollectionResult,
  deferred,
  failed,
  parseResourceKey,
  type PlatformCode,
  type ResourceRef,
} from '../src/model.js';
import type { BreakerChange, BreakerPolicy } from './circuitBreaker.js';
import { PlatformGate, type SharedCallBudget } from './platformGate.js';
import { UnsharedCallBudget } from './unsharedCallBudget.js';
import { InProcessPlatformPauses, type PlatformPauses } from './platformPauses.js';
import { upstreamKey, upstreamParts, type UpstreamKey } from './upstreamKey.js';

export type { SharedCallBudget } from './platformGate.js';

/** Every limit the pipeline keeps arrives here. */
export interface CollectionOptions {
  collectors: ReadonlyMap<PlatformCode, CollectingPlatform>;
  scheduler: SchedulerLike;
  timeoutMs: number;
  batchWindowMs: number;
  /** Per-upstream circuit breaker. */
  breaker: BreakerPolicy;
  /** Hears each upstream's breaker open and close (the service logs it); `host` names a federated platform's server. */
  onBreakerChange?: (platform: PlatformCode, change: BreakerChange, host?: string) => void;
  /**
   * Where rate-limit pauses are announced and heard (streams/platformPauses.ts); a board of this
   * pipeline's own when absent, as for a node alone.
   */
  pauses?: PlatformPauses | undefined;
  /**
   * The platforms' budgets shared with the other nodes (streams/platformGate.ts); one shared with
   * nobody when absent, as for a node alone.
   */
  sharedBudget?: SharedCallBudget | undefined;
}

export function collectResources(demand$: Observable<string>, options: CollectionOptions): Observable<CollectionResult> {
  return defer(() => {
    const pauses = options.pauses ?? new InProcessPlatformPauses(() => options.scheduler.now());
    const shared = options.sharedBudget ?? new UnsharedCallBudget();
    const upstreamOf = (key: string): UpstreamKey => {
      const ref = parseResourceKey(key);
      return upstreamKey(ref.platform, options.collectors.get(ref.platform)!.hostOf?.(ref.identifier));
    };
    return demand$.pipe(
      groupBy(upstreamOf),
      mergeMap((upstreamDemand$) => {
        const upstream = upstreamDemand$.key;
        const { platform: code, host } = upstreamParts(upstream);
        const platform = options.collectors.get(code)!;
        const onChange = options.onBreakerChange;
        const gate = new PlatformGate({
          upstream,
          budget: platform.budget,
          scheduler: options.scheduler,
          breaker: options.breaker,
          onBreakerChange: onChange && ((change) => onChange(code, change, host)),
          shared,
        });
        // Pauses in force and announced from now on, this pipeline's own included.
        const heard = pauses.paused.subscribe(({ upstream: paused, until }) => {
          if (paused === upstream) gate.pauseUntil(until);
        });
        const call: UpstreamCall = { upstream, platform, gate, pauses };
        return upstreamDemand$.pipe(
          batches(platform.collector.maxBatch, options),
          mergeMap((keys) => collectBatch(call, keys, options), platform.budget.concurrency),
          finalize(() => heard.unsubscribe()),
        );
      }),
    );
  });
}

/** What every call to one upstream goes through. */
interface UpstreamCall {
  upstream: UpstreamKey;
  platform: CollectingPlatform;
  gate: PlatformGate;
  pauses: PlatformPauses;
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

/**
 * One batch through the gate and the collector. When several of a batch's items failed, one
 * bad item may have failed an upstream call they shared (a collector can make several calls
 * per batch), so the failed items are split in halves and each half is collected again, one
 * after the other, each through the gate like any call; the other items keep their outcomes.
 * One bad item among n costs at most 2·log2(n) more calls, all inside the platform's budget
 * and its concurrency slot, and the breaker still counts each call. A lone failed item is
 * its own answer. docs/platforms.md#batches-with-a-bad-item.
 */
function collectBatch(call: UpstreamCall, keys: string[], options: CollectionOptions): Observable<CollectionResult> {
  const { gate } = call;
  return gate.admission().pipe(
    mergeMap(() => callCollector(call, keys, options)),
    mergeMap((outcomes) => {
      const results = keys.map((key, index) => ({ key, outcome: outcomes[index] ?? failed('collector returned no outcome') }));
      // The limit is the upstream's, for the platform's token or address: every node sharing the pauses stops.
      for (const { outcome } of results) {
        if (outcome.kind !== 'rateLimited') continue;
        gate.pauseUntil(outcome.retryAt);
        call.pauses.announce(call.upstream, outcome.retryAt);
      }
      const failedKeys = results.filter(({ outcome }) => outcome.kind === 'failed').map(({ key }) => key);
      if (failedKeys.length < 2) return from(results);
      const half = Math.ceil(failedKeys.length / 2);
      return concat(
        from(results.filter(({ outcome }) => outcome.kind !== 'failed')),
        defer(() => collectBatch(call, failedKeys.slice(0, half), options)),
        defer(() => collectBatch(call, failedKeys.slice(half), options)),
      );
    }),
  );
}

function callCollector(
  { upstream, platform, gate }: UpstreamCall,
  keys: string[],
  options: CollectionOptions,
): Observable<CollectionOutcome[]> {
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
    platform.collector
      .collect(refs, abort.signal)
      .then(answer, (error: unknown) => answer(refs.map(() => failed(`collector threw: ${String(error)}`))));
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
  // A refused call was never made: its resources are deferred to the breaker's next trial,
  // which counts as no attempt of theirs (docs/platforms.md#circuit-breaker).
  const refused = (retryAt: number) =>
    refs.map(() => deferred(retryAt, `${upstream} paused by its circuit breaker after repeated failures`));
  return gate.breaker.guard(call, allFailed, refused);
}
