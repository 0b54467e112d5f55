// The metrics listener over real HTTP: its own address, the text format a scraper reads.
import t, { type Test } from 'tap';
import { silentLogger } from '../../src/log.js';
import { startMetricsListener } from '../../src/http/metricsListener.js';
import { PrometheusMetrics, type MetricSources } from '../../src/metrics/prometheusMetrics.js';
import { startTestService } from '../helpers/service.js';
import { parseExposition, sampleValue } from './exposition.js';

async function listen(t: Test, sources: MetricSources = {}) {
  const metrics = new PrometheusMetrics(sources);
  const listener = await startMetricsListener({ host: '127.0.0.1', port: 0 }, metrics, silentLogger);
  t.teardown(() => listener.close());
  return { metrics, listener, url: `http://127.0.0.1:${listener.port}` };
}

t.test('metrics listener - GET /metrics answers the text format with the recorded values', async (t) => {
  const { metrics, url } = await listen(t, { queueDepths: () => [['collection', 7]] });
  metrics.requestAnswered('/api/v1/resources/search', '429 Too Many Requests', 0.0002);
  metrics.admissionRefused('rate_limited');
  metrics.collectionEnded('bluesky', 'found');
  const response = await fetch(`${url}/metrics`);
  t.equal(response.status, 200);
  t.equal(response.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  const samples = parseExposition(await response.text());
  t.equal(sampleValue(samples, 'datapoints_http_requests_total', { route: '/api/v1/resources/search', status: '429' }), 1);
  t.equal(sampleValue(samples, 'datapoints_admissions_refused_total', { reason: 'rate_limited' }), 1);
  t.equal(sampleValue(samples, 'datapoints_collections_total', { platform: 'bluesky', outcome: 'found' }), 1);
  t.equal(sampleValue(samples, 'datapoints_queue_depth', { queue: 'collection' }), 7);
});

t.test('metrics listener - any other path is a 404 that says where the metrics are', async (t) => {
  const { url } = await listen(t);
  const response = await fetch(`${url}/api/v1/resources/search`, { method: 'POST', body: '{}' });
  t.equal(response.status, 404);
  t.equal(await response.text(), 'No such endpoint: POST /api/v1/resources/search; metrics are at GET /metrics\n');
});

t.test('metrics listener - a source that fails gives a 500 scrape, and the next scrape works again', async (t) => {
  let failing = true;
  const { url } = await listen(t, {
    queueDepths: () => {
      if (failing) throw new Error('queue unreachable');
      return [['collection', 1]];
    },
  });
  const failed = await fetch(`${url}/metrics`);
  t.equal(failed.status, 500);
  t.equal(await failed.text(), 'metrics not gathered; see the server log\n');
  failing = false;
  const recovered = await fetch(`${url}/metrics`);
  t.equal(recovered.status, 200);
  t.equal(sampleValue(parseExposition(await recovered.text()), 'datapoints_queue_depth', { queue: 'collection' }), 1);
});

t.test('metrics listener - an address it cannot bind is refused, and close stops it listening', async (t) => {
  await t.rejects(
    startMetricsListener({ host: '203.0.113.7', port: 0 }, new PrometheusMetrics(), silentLogger),
    new Error('cannot listen for metrics on 203.0.113.7:0'),
  );
  const metrics = new PrometheusMetrics();
  const listener = await startMetricsListener({ host: '127.0.0.1', port: 0 }, metrics, silentLogger);
  t.equal((await fetch(`http://127.0.0.1:${listener.port}/metrics`)).status, 200);
  listener.close();
  await t.rejects(fetch(`http://127.0.0.1:${listener.port}/metrics`), { cause: { code: 'ECONNREFUSED' } });
});

t.test('metrics listener - the API port does not serve metrics', async (t) => {
  const { url } = await startTestService(t);
  const response = await fetch(`${url}/metrics`);
  t.equal(response.status, 404);
  t.same(await response.json(), { error: 'No such endpoint: GET /metrics' });
});
