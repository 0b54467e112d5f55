// The Prometheus recorder (docs/operations-endpoints.md#metrics): counters fed by the events of
// `Metrics`, answers through ./answerTally.ts, gauges read from their sources when scraped.
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { BreakerState } from '../../streams/circuitBreaker.js';
import type { CollectionOutcome, PlatformCode } from '../model.js';
import { platformCodes } from '../platforms/registry.js';
import { AnswerTally, answerSeriesNames, latencyBuckets } from './answerTally.js';
import type { EdgeCounts } from './edgeMetrics.js';
import type { Metrics, RefusalReason } from './metrics.js';
import { storageSize, type StatsSource } from './storageSize.js';

/** Where the gauges read their values at scrape time, so nothing polls between scrapes; a gauge without a source is not exported. */
export interface MetricSources {
  /** The circuit breaker of each platform that has one. */
  breakerStates?(): Iterable<readonly [PlatformCode, BreakerState]>;
  /** Items waiting or in work in each queue of the service, by queue name. */
  queueDepths?(): Iterable<readonly [string, number]>;
  /** The LMDB environment. */
  storage?: StatsSource;
}

const outcomeLabels: Record<CollectionOutcome['kind'], string> = {
  found: 'found',
  notFound: 'not_found',
  rateLimited: 'rate_limited',
  failed: 'failed',
  deferred: 'deferred',
};
const outcomeKinds: ReadonlyArray<CollectionOutcome['kind']> = ['found', 'notFound', 'rateLimited', 'failed'];
const refusalReasons: readonly RefusalReason[] = [
  'missing_token',
  'invalid_token',
  'quota_exhausted',
  'rate_limited',
  'no_account_room',
  'account_suspended',
];
const breakerStates: readonly BreakerState[] = ['closed', 'open', 'halfOpen'];

export class PrometheusMetrics implements Metrics {
  /** Its own, never prom-client's global one, so that two services in one process (tests) do not share series. */
  private readonly registry = new Registry();
  private readonly answers = new AnswerTally(answerSeriesNames, latencyBuckets);
  private readonly refusals: Counter<'reason'>;
  private readonly collections: Counter<'platform' | 'outcome'>;
  private readonly edgesReplaced: Counter;

  constructor(sources: MetricSources = {}) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.refusals = new Counter({
      name: 'datapoints_admissions_refused_total',
      help: 'Search requests refused before their body was read, by reason',
      labelNames: ['reason'],
      registers,
    });
    this.collections = new Counter({
      name: 'datapoints_collections_total',
      help: 'Collections ended, by platform and outcome',
      labelNames: ['platform', 'outcome'],
      registers,
    });
    this.edgesReplaced = new Counter({
      name: 'datapoints_edge_threads_replaced_total',
      help: 'Edge threads that ended and were replaced (docs/guarantees.md#an-edge-thread-that-ends)',
      registers,
    });
    // Every known series starts at zero, so that rates and alerts see it before its first event.
    for (const reason of refusalReasons) this.refusals.labels(reason).inc(0);
    for (const platform of platformCodes) {
      for (const kind of outcomeKinds) this.collections.labels(platform, outcomeLabels[kind]).inc(0);
    }
    this.registerGauges(sources, registers);
  }

  requestAnswered(route: string, status: string, seconds: number): void {
    this.answers.record(route, status, seconds);
  }

  /** Every metric in Prometheus' text format, as a scrape receives it. */
  async exposition(): Promise<string> {
    return (await this.registry.metrics()) + this.answers.exposition();
  }

  /** The content type of `exposition()`. */
  get contentType(): string {
    return this.registry.contentType;
  }

  admissionRefused(reason: RefusalReason): void {
    this.refusals.labels(reason).inc();
  }

  collectionEnded(platform: PlatformCode, outcome: CollectionOutcome['kind']): void {
    this.collections.labels(platform, outcomeLabels[outcome]).inc();
  }

  /** An edge thread's replacement listens (docs/guarantees.md#an-edge-thread-that-ends). */
  edgeThreadReplaced(): void {
    this.edgesReplaced.inc();
  }

  /** What an edge thread counted since its last post (src/metrics/edgeMetrics.ts). */
  addEdgeCounts(counts: EdgeCounts): void {
    this.answers.add(counts.answers);
    for (const [reason, count] of counts.refusals) this.refusals.labels(reason).inc(count);
  }

  private registerGauges(sources: MetricSources, registers: Registry[]): void {
    const { breakerStates: readBreakers, queueDepths: readQueues, storage } = sources;
    if (readBreakers) {
      const gauge: Gauge<'platform' | 'state'> = new Gauge({
        name: 'datapoints_circuit_breaker_state',
        help: 'Circuit breaker of each platform: 1 for its current state, 0 for the others',
        labelNames: ['platform', 'state'],
        registers,
        collect() {
          gauge.reset();
          for (const [platform, current] of readBreakers()) {
            for (const state of breakerStates) gauge.labels(platform, state).set(state === current ? 1 : 0);
          }
        },
      });
    }
    if (readQueues) {
      labelledGauge({ name: 'datapoints_queue_depth', help: 'Items waiting or in work, by queue', label: 'queue', registers }, readQueues);
    }
    if (storage) {
      const help = 'LMDB environment: bytes in use (up to its highest page used) and its map size';
      labelledGauge({ name: 'datapoints_lmdb_size_bytes', help, label: 'measure', registers }, () => {
        // A closed environment has no size: the series go absent and /readyz says why.
        const size = storageSize(storage);
        return size
          ? [
              ['used', size.usedBytes],
              ['map', size.mapBytes],
            ]
          : [];
      });
    }
  }
}

/** A gauge with one label, whose series are exactly what `read` gives at each scrape. */
function labelledGauge(
  gauge: { name: string; help: string; label: string; registers: Registry[] },
  read: () => Iterable<readonly [string, number]>,
): void {
  const metric: Gauge<string> = new Gauge({
    name: gauge.name,
    help: gauge.help,
    labelNames: [gauge.label],
    registers: gauge.registers,
    collect() {
      metric.reset();
      for (const [label, value] of read()) metric.labels(label).set(value);
    },
  });
}
