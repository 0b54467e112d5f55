// The collector (docs/architecture.md#the-assemblies), only where the node's role collects: the
// due scheduler that finds work coming due, and the collection loop that takes work from the
// queue, runs it through the platforms' collectors and hands each outcome to the resource host.
import { asyncScheduler } from 'rxjs';
import type { BreakerPolicy } from '../../streams/circuitBreaker.js';
import { collectResources } from '../../streams/collection.js';
import { sharedDueIndex } from '../cluster/dueWorkShare.js';
import { startCollectionLoop } from '../collection/collectionLoop.js';
import { collectionDefaults, limits, replicaDefaults } from '../config.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import type { DueIndex } from '../../streams/dueWork.js';
import { dueIndexPastLeases } from '../resources/dueIndexPastLeases.js';
import { startDueScheduler } from '../resources/dueScheduler.js';
import type { NodeCore } from './nodeCore.js';
import type { Upstreams } from './upstreams.js';

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
  const { seams, work, resourceHost, health, replica } = core;
  const { platformStatus } = upstreams;
  // Each collector call is counted against its platform's budget.
  const countedCollectors = new Map(
    [...upstreams.collectors].map(([platform, { collector, budget }]) => [
      platform,
      { collector: platformStatus.counted(platform, collector), budget },
    ]),
  );
  const collection = startCollectionLoop({
    queue: seams.queue,
    // An outcome may be of a resource another node created: step it from the log's latest change.
    sink: replica ? replica.caughtUpOutcomes(resourceHost) : resourceHost,
    claims: work,
    collect: platformStatus.watched((keys) =>
      collectResources(keys, {
        collectors: countedCollectors,
        scheduler: asyncScheduler,
        timeoutMs,
        batchWindowMs: collectionDefaults.batchWindowMs,
        breaker,
        onBreakerChange: (platform, change) => {
          platformStatus.breakerChanged(platform, change);
          log.warn({ platform, ...change }, `circuit breaker ${change.state}`);
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
    index: dueIndexOf(core),
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

/** A cluster shares due work among its nodes; a node alone scans past the leases it holds in memory. */
function dueIndexOf({ seams, store, work, leases }: NodeCore): DueIndex {
  const inWork = (key: string) => work.has(key);
  if (seams.resources) return sharedDueIndex(store, seams.resources.node, replicaDefaults.dueSpreadMs, inWork);
  return dueIndexPastLeases({
    index: store,
    leased: (key, now) => leases?.holds(key, now) ?? false,
    inWork,
    rescanMs: limits.dueRescanMs,
  });
}
