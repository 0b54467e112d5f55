// The public routes and metrics of the in-process service (no edge threads), over real HTTP:
// /readyz for a background failure and for a stop, metrics for answers and collections.
import t from 'tap';
import { Pool } from 'undici';
import { ResourceStore } from '../../src/store/resourceStore.js';
import { eventually, searchPath, startTestService } from '../helpers/service.js';
import { parseExposition, sampleValue } from '../metrics/exposition.js';

async function readyz(pool: Pool) {
  const response = await pool.request({ path: '/readyz', method: 'GET' });
  return { status: response.statusCode, body: JSON.parse(await response.body.text()) };
}

t.test('service endpoints - /readyz is 200, then 503 with the problem while the due scan keeps failing', async (t) => {
  let failing = false;
  const dueBefore = ResourceStore.prototype.dueBefore;
  ResourceStore.prototype.dueBefore = function (now, limit, after) {
    if (failing) throw new Error('MDB_BAD_TXN: transaction must abort');
    return dueBefore.call(this, now, limit, after);
  };
  t.teardown(() => {
    ResourceStore.prototype.dueBefore = dueBefore;
  });
  const ts = await startTestService(t);
  const pool = new Pool(ts.url, { connections: 1 });
  t.teardown(() => pool.close());
  t.same(await readyz(pool), { status: 200, body: { ready: true, problems: [] } });
  failing = true;
  const failed = await eventually(
    () => readyz(pool),
    (answer) => answer.status === 503,
  );
  t.equal(failed.status, 503);
  t.match(failed.body, {
    ready: false,
    problems: [
      { component: 'due work', message: 'due work scan failed: MDB_BAD_TXN: transaction must abort', since: String, count: Number },
    ],
  });
  failing = false;
  const healed = await eventually(
    () => readyz(pool),
    (answer) => answer.status === 200,
  );
  t.same(healed, { status: 200, body: { ready: true, problems: [] } }, 'ready again once the scan works');
});

t.test('service endpoints - once a stop begins, a keep-alive client asking /readyz is told 503 stopping', async (t) => {
  const ts = await startTestService(t);
  const pool = new Pool(ts.url, { connections: 1 });
  t.equal((await readyz(pool)).status, 200);
  const stopped = ts.service.stop();
  const answer = await readyz(pool);
  t.equal(answer.status, 503);
  t.match(answer.body.problems, [{ component: 'server', message: 'stopping: this server takes no more searches' }]);
  await stopped;
  await pool.destroy();
});

t.test('service endpoints - metrics count answers, refusals and collections', async (t) => {
  const ts = await startTestService(t, { metrics: { host: '127.0.0.1', port: 0 } });
  const metricsUrl = `http://127.0.0.1:${ts.service.metricsPort}/metrics`;
  const token = await ts.tokenFor('acme', { plan: 'paid' });
  const octocat = { resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] };
  for (let index = 0; index < 3; index++) t.equal((await ts.search(token, octocat)).status, 200);
  t.equal((await ts.search('dp_live_wrong', octocat)).status, 401);
  const scrape = async () => parseExposition(await (await fetch(metricsUrl)).text());
  const samples = await eventually(
    scrape,
    (samples) => sampleValue(samples, 'datapoints_collections_total', { platform: 'github', outcome: 'found' }) === 1,
  );
  t.equal(sampleValue(samples, 'datapoints_http_requests_total', { route: searchPath, status: '200' }), 3);
  t.equal(sampleValue(samples, 'datapoints_http_requests_total', { route: searchPath, status: '401' }), 1);
  t.equal(sampleValue(samples, 'datapoints_admissions_refused_total', { reason: 'invalid_token' }), 1);
  t.equal(sampleValue(samples, 'datapoints_collections_total', { platform: 'github', outcome: 'found' }), 1);
});

t.test('service endpoints - history answers are counted under their own route, apart from the searches', async (t) => {
  const ts = await startTestService(t, { metrics: { host: '127.0.0.1', port: 0 } });
  const metricsUrl = `http://127.0.0.1:${ts.service.metricsPort}/metrics`;
  const token = await ts.tokenFor('acme', { plan: 'paid' });
  const octocat = { resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] };
  const historyPath = '/api/v1/resources/history';
  const history = (body: unknown, authorization = `Bearer ${token}`) =>
    fetch(ts.url + historyPath, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify(body),
    });
  t.equal((await ts.search(token, octocat)).status, 200);
  for (let index = 0; index < 2; index++) t.equal((await history(octocat)).status, 200);
  t.equal((await history({ resources: [] })).status, 422);
  t.equal((await history(octocat, 'Bearer dp_live_wrong')).status, 401);
  t.equal((await fetch(ts.url + historyPath)).status, 405);
  const samples = parseExposition(await (await fetch(metricsUrl)).text());
  t.equal(sampleValue(samples, 'datapoints_http_requests_total', { route: searchPath, status: '200' }), 1);
  t.equal(sampleValue(samples, 'datapoints_http_requests_total', { route: historyPath, status: '200' }), 2);
  t.equal(sampleValue(samples, 'datapoints_http_requests_total', { route: historyPath, status: '422' }), 1);
  t.equal(sampleValue(samples, 'datapoints_http_requests_total', { route: historyPath, status: '401' }), 1);
  t.equal(sampleValue(samples, 'datapoints_http_requests_total', { route: historyPath, status: '405' }), 1);
  t.equal(sampleValue(samples, 'datapoints_http_request_duration_seconds_count', { route: historyPath, status: '200' }), 2);
});
