// The Prometheus recorder: events become counters and latency buckets, sources become gauges read
// at scrape time. Read back in the text format a scraper receives.
import t from 'tap';
import type { BreakerState } from '../../streams/circuitBreaker.js';
import type { PlatformCode } from '../../src/model.js';
import { PrometheusMetrics } from '../../src/metrics/prometheusMetrics.js';
import { platformCodes } from '../../src/platforms/registry.js';
import { openDatabases } from '../../src/store/environment.js';
import { tempDataDir } from '../helpers/service.js';
import { parseExposition, sampleValue } from './exposition.js';

const scrape = async (metrics: PrometheusMetrics) => parseExposition(await metrics.exposition());
const searchRoute = '/api/v1/resources/search';

t.test('metrics - answers are counted by route and status code, their latency bucketed', async (t) => {
  const metrics = new PrometheusMetrics();
  metrics.requestAnswered(searchRoute, '200 OK', 0.0003);
  metrics.requestAnswered(searchRoute, '200 OK', 0.0004);
  metrics.requestAnswered(searchRoute, '401 Unauthorized', 0.00005);
  metrics.requestAnswered('/healthz', '200 OK', 0.00002);
  const samples = await scrape(metrics);
  const ok = { route: searchRoute, status: '200' };
  t.equal(sampleValue(samples, 'datapoints_http_requests_total', ok), 2);
  t.equal(sampleValue(samples, 'datapoints_http_requests_total', { route: searchRoute, status: '401' }), 1);
  t.equal(sampleValue(samples, 'datapoints_http_requests_total', { route: '/healthz', status: '200' }), 1);
  t.equal(sampleValue(samples, 'datapoints_http_request_duration_seconds_bucket', { ...ok, le: '0.00025' }), 0);
  t.equal(sampleValue(samples, 'datapoints_http_request_duration_seconds_bucket', { ...ok, le: '0.0005' }), 2);
  t.equal(sampleValue(samples, 'datapoints_http_request_duration_seconds_bucket', { ...ok, le: '+Inf' }), 2);
  t.equal(sampleValue(samples, 'datapoints_http_request_duration_seconds_count', ok), 2);
  t.equal(sampleValue(samples, 'datapoints_http_request_duration_seconds_sum', ok), 0.0007);
  t.equal(sampleValue(samples, 'datapoints_http_request_duration_seconds_bucket', { route: searchRoute, status: '401', le: '0.0001' }), 1);
});

t.test('metrics - refusals by reason and collections by platform and outcome start at zero', async (t) => {
  const metrics = new PrometheusMetrics();
  let samples = await scrape(metrics);
  for (const reason of ['missing_token', 'invalid_token', 'quota_exhausted', 'rate_limited', 'no_account_room']) {
    t.equal(sampleValue(samples, 'datapoints_admissions_refused_total', { reason }), 0, `${reason} starts at 0`);
  }
  t.equal(
    samples.filter((sample) => sample.name === 'datapoints_collections_total').length,
    platformCodes.length * 4,
    'every platform, four outcomes',
  );
  metrics.admissionRefused('rate_limited');
  metrics.admissionRefused('rate_limited');
  metrics.admissionRefused('invalid_token');
  metrics.collectionEnded('github', 'found');
  metrics.collectionEnded('github', 'notFound');
  metrics.collectionEnded('x', 'rateLimited');
  metrics.collectionEnded('x', 'failed');
  samples = await scrape(metrics);
  t.equal(sampleValue(samples, 'datapoints_admissions_refused_total', { reason: 'rate_limited' }), 2);
  t.equal(sampleValue(samples, 'datapoints_admissions_refused_total', { reason: 'invalid_token' }), 1);
  t.equal(sampleValue(samples, 'datapoints_admissions_refused_total', { reason: 'quota_exhausted' }), 0);
  t.equal(sampleValue(samples, 'datapoints_collections_total', { platform: 'github', outcome: 'found' }), 1);
  t.equal(sampleValue(samples, 'datapoints_collections_total', { platform: 'github', outcome: 'not_found' }), 1);
  t.equal(sampleValue(samples, 'datapoints_collections_total', { platform: 'x', outcome: 'rate_limited' }), 1);
  t.equal(sampleValue(samples, 'datapoints_collections_total', { platform: 'x', outcome: 'failed' }), 1);
  t.equal(sampleValue(samples, 'datapoints_collections_total', { platform: 'youtube', outcome: 'found' }), 0);
});

t.test('metrics - breaker states and queue depths are read from their sources at each scrape', async (t) => {
  let breakers: Array<[PlatformCode, BreakerState]> = [
    ['github', 'open'],
    ['x', 'closed'],
  ];
  let depths: Array<[string, number]> = [
    ['collection', 3],
    ['in_work', 5],
  ];
  const metrics = new PrometheusMetrics({ breakerStates: () => breakers, queueDepths: () => depths });
  let samples = await scrape(metrics);
  t.equal(sampleValue(samples, 'datapoints_circuit_breaker_state', { platform: 'github', state: 'open' }), 1);
  t.equal(sampleValue(samples, 'datapoints_circuit_breaker_state', { platform: 'github', state: 'closed' }), 0);
  t.equal(sampleValue(samples, 'datapoints_circuit_breaker_state', { platform: 'github', state: 'halfOpen' }), 0);
  t.equal(sampleValue(samples, 'datapoints_circuit_breaker_state', { platform: 'x', state: 'closed' }), 1);
  t.equal(sampleValue(samples, 'datapoints_queue_depth', { queue: 'collection' }), 3);
  t.equal(sampleValue(samples, 'datapoints_queue_depth', { queue: 'in_work' }), 5);

  breakers = [['github', 'halfOpen']];
  depths = [['collection', 0]];
  samples = await scrape(metrics);
  t.equal(sampleValue(samples, 'datapoints_circuit_breaker_state', { platform: 'github', state: 'halfOpen' }), 1);
  t.equal(sampleValue(samples, 'datapoints_circuit_breaker_state', { platform: 'github', state: 'open' }), 0);
  t.equal(sampleValue(samples, 'datapoints_circuit_breaker_state', { platform: 'x' }), undefined, 'a platform no longer reported is gone');
  t.equal(sampleValue(samples, 'datapoints_queue_depth', { queue: 'collection' }), 0);
  t.equal(sampleValue(samples, 'datapoints_queue_depth', { queue: 'in_work' }), undefined);
});

t.test('metrics - the LMDB size comes from the environment, and goes absent once it is closed', async (t) => {
  const dbs = openDatabases(tempDataDir(t));
  await dbs.views.put('github/account/octocat', ['x'.repeat(10_000), 0]);
  const metrics = new PrometheusMetrics({ storage: dbs.root });
  let samples = await scrape(metrics);
  t.equal(sampleValue(samples, 'datapoints_lmdb_size_bytes', { measure: 'map' }), 64 * 1024 ** 3);
  const used = sampleValue(samples, 'datapoints_lmdb_size_bytes', { measure: 'used' })!;
  t.ok(used >= 10_000 && used % 4096 === 0, `used ${used} bytes: whole pages, at least the value written`);
  await dbs.root.close();
  samples = await scrape(metrics);
  t.equal(sampleValue(samples, 'datapoints_lmdb_size_bytes', { measure: 'used' }), undefined);
  t.equal(sampleValue(samples, 'datapoints_lmdb_size_bytes', { measure: 'map' }), undefined);
});

t.test('metrics - a gauge without a source is not exported; process metrics are', async (t) => {
  const samples = await scrape(new PrometheusMetrics());
  for (const name of ['datapoints_circuit_breaker_state', 'datapoints_queue_depth', 'datapoints_lmdb_size_bytes']) {
    t.equal(
      samples.some((sample) => sample.name === name),
      false,
      `${name} absent`,
    );
  }
  t.equal(
    samples.some((sample) => sample.name === 'process_cpu_user_seconds_total'),
    true,
  );
  t.equal(
    samples.some((sample) => sample.name === 'nodejs_eventloop_lag_seconds'),
    true,
  );
});
