// The collector (docs/architecture.md#the-assemblies), only where the node's role collects: the
// due scheduler that finds work coming due, and the collection loop that takes work from the
// queue, runs it through the platforms' collectors and hands each outcome to the resource host.
import { asyncScheduler } from 'rxjs';
import type { BreakerPolicy } from '../../streams/circuitBreaker.js';
import { collectResources } from '../../streams/collection.js';
import { startCollectionLoop } from '../collection/collectionLoop.js';
import { collectionDefaults, limits } from '../config.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import { startDueScheduler } from '../resources/dueScheduler.js';
import type { NodeCore } from './nodeCore.js';
import type { Upstreams } from './upstreams.js';
import { CommitRefused } from '../store/storageSpace.js';

export interface CollectorOptions {
  core: NodeCore;
  upstreams: Upstreams;
  timeoutMs: number;
  breaker: BreakerPolicy;
  metrics: Metrics | undefined;
  log: Logger;
}

export interface RunningCollector {
  /** Finishes or gives back the collections out, waiting at most `limits.collectionStopGraceMs`. */
  stop(): Promise<void>;
}

export function startCollector({ core, upstreams, timeoutMs, breaker, metrics, log }: CollectorOptions): RunningCollector {
  const { seams, work, resourceHost, health, copy } = core;
  const { platformStatus } = upstreams;
  // Each collector call is counted against its platform's budget.
  const countedCollectors = new Map(
    [...upstreams.collectors].map(([platform, { collector, budget, hostOf }]) => [
      platform,
      { collector: platformStatus.counted(platform, collector), budget, hostOf },
    ]),
  );
  const collection = startCollectionLoop({
    queue: seams.queue,
    sink: copy.outcomes(resourceHost),
    claims: work,
    refusedByStore: (error) => error instanceof CommitRefused,
    collect: platformStatus.watched((keys) =>
      collectResources(keys, {
        collectors: countedCollectors,
        scheduler: asyncScheduler,
        timeoutMs,
        batchWindowMs: collectionDefaults.batchWindowMs,
        breaker,
        // A federated platform's server has a breaker of its own, which never pauses the platform.
        onBreakerChange: (platform, change, host) => {
          if (host === undefined) platformStatus.breakerChanged(platform, change);
          else platformStatus.serverBreakerChanged(platform, host, change);
          log.warn({ platform, ...(host === undefined ? {} : { host }), ...change }, `circuit breaker ${change.state}`);
        },
        // docs/design/cluster.md#upstream-budgets-cluster-wide: shared with the cluster, or with nobody.
        pauses: seams.pauses,
        sharedBudget: seams.callBudget,
      }),
    ),
    maxCollecting: limits.maxResourcesInWork,
    pollMs: limits.collectionPollMs,
    restartDelayMs: limits.pipelineRestartMs,
    scheduler: asyncScheduler,
    log,
    health,
    metrics,
  });
  const dueScheduler = startDueScheduler({
    index: copy.dueIndex((key) => work.has(key)),
    resourceHost,
    work,
    maxInWork: limits.maxResourcesInWork,
    scanBatch: limits.dueScanBatch,
    scanMs: limits.dueScanMs,
    restartDelayMs: limits.pipelineRestartMs,
    now: Date.now,
    scheduler: asyncScheduler,
    log,
    health,
  });
  return {
    async stop() {
      dueScheduler.unsubscribe();
      await collection.stop(limits.collectionStopGraceMs);
    },
  };
}
