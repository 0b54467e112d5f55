// An edge thread's counts, drained and added up on the resource thread
// (docs/operations-endpoints.md#metrics-with-threads).
import t from 'tap';
import { EdgeMetrics } from '../../src/metrics/edgeMetrics.js';
import { PrometheusMetrics } from '../../src/metrics/prometheusMetrics.js';
import { parseExposition, sampleValue } from './exposition.js';

const route = '/api/v1/resources/search';

t.test('edge metrics - a drain hands over what was counted since the last one, then nothing until more is counted', async (t) => {
  const edge = new EdgeMetrics();
  t.equal(edge.drain(), undefined, 'nothing counted: nothing to post');
  edge.requestAnswered(route, '200 OK', 0.0003);
  edge.requestAnswered(route, '200 OK', 0.2);
  edge.admissionRefused('missing_token');
  const counts = edge.drain();
  t.same(counts?.refusals, [['missing_token', 1]]);
  t.equal(counts?.answers.length, 1);
  const [answeredRoute, status, perBucket, count, sum] = counts!.answers[0]!;
  t.same([answeredRoute, status, count], [route, '200 OK', 2]);
  t.equal(sum, 0.2003);
  t.equal(
    perBucket.reduce((total, bucket) => total + bucket, 0),
    2,
    'each answer in one bucket',
  );
  t.equal(edge.drain(), undefined, 'drained: counting starts from zero');
  edge.requestAnswered(route, '401 Unauthorized', 0.0001);
  t.same(
    edge.drain()?.answers.map(([, status, , count]) => [status, count]),
    [['401 Unauthorized', 1]],
  );
});

t.test('edge metrics - the Prometheus recorder adds up the counts of several edges with its own', async (t) => {
  const metrics = new PrometheusMetrics();
  const edges = [new EdgeMetrics(), new EdgeMetrics()];
  for (const [index, edge] of edges.entries()) {
    for (let answer = 0; answer <= index; answer++) edge.requestAnswered(route, '200 OK', 0.0002);
    edge.admissionRefused('rate_limited');
  }
  metrics.requestAnswered(route, '200 OK', 0.0002);
  for (const edge of edges) metrics.addEdgeCounts(edge.drain()!);
  edges[0]!.requestAnswered(route, '200 OK', 0.0002);
  metrics.addEdgeCounts(edges[0]!.drain()!);
  const samples = parseExposition(await metrics.exposition());
  t.equal(
    sampleValue(samples, 'datapoints_http_requests_total', { route, status: '200' }),
    5,
    '1 + 2 from the edges, 1 of its own, 1 later',
  );
  t.equal(sampleValue(samples, 'datapoints_http_request_duration_seconds_bucket', { route, status: '200', le: '0.00025' }), 5);
  t.equal(sampleValue(samples, 'datapoints_http_request_duration_seconds_bucket', { route, status: '200', le: '0.0001' }), 0);
  t.equal(sampleValue(samples, 'datapoints_admissions_refused_total', { reason: 'rate_limited' }), 2);
});
