// The public routes and metrics of a server with two edge threads, over real HTTP
// (docs/operations-endpoints.md#with-threads): every edge answers /readyz for the resource
// thread's health and for its own stop; the metrics listener adds up what the edges counted.
// One server serves the tests that need no fixture of their own; the stop test, last, ends it.
import t from 'tap';
import { Pool } from 'undici';
import { parseExposition, sampleValue } from '../metrics/exposition.js';
import { cliInProcess } from '../helpers/cli.js';
import { eventually, searchPath, tempDataDir } from '../helpers/service.js';
import { provision } from '../helpers/provision.js';
import { fixture, serve } from './serverProcess.js';

async function readyz(pool: Pool) {
  const response = await pool.request({ path: '/readyz', method: 'GET' });
  return { status: response.statusCode, body: JSON.parse(await response.body.text()) };
}

const shared = tempDataDir(t);
const scraped = await provision(shared, 'scraped');
const server = await serve(t, ['--data', shared, '--upstream', 'emulator', '--threads', '2', '--metrics', '127.0.0.1:0']);

t.test('threads endpoints - /readyz is 200 on every edge, and the OpenAPI document and /healthz are served', async (t) => {
  // One connection each: the kernel spreads them over both edges.
  const pools = Array.from({ length: 8 }, () => new Pool(server.url, { connections: 1 }));
  for (const pool of pools) t.same(await readyz(pool), { status: 200, body: { ready: true, problems: [] } });
  const document = await fetch(`${server.url}/api/v1/openapi.json`);
  t.equal(document.status, 200);
  t.equal((await document.json()).openapi, '3.1.0');
  t.same(await (await fetch(`${server.url}/healthz`)).json(), { status: 'ok' });
  await Promise.all(pools.map((pool) => pool.close()));
});

t.test(
  'threads endpoints - --metrics: the address is printed after listening, and answers on both edges and collections are counted',
  async (t) => {
    t.match(server.lines[0], /^listening on http:\/\/127\.0\.0\.1:\d+$/);
    t.match(server.lines[1], /^metrics on http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const metricsUrl = server.lines[1]!.slice('metrics on '.length);
    const scrape = async () => parseExposition(await (await fetch(metricsUrl)).text());
    const searches = 20;
    const pools = Array.from({ length: 4 }, () => new Pool(server.url, { connections: 1 }));
    const search = async (pool: Pool, authorization?: string) => {
      const response = await pool.request({
        path: searchPath,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] }),
      });
      await response.body.text();
      return response.statusCode;
    };
    for (let index = 0; index < searches; index++) t.equal(await search(pools[index % pools.length]!, `Bearer ${scraped.secret}`), 200);
    t.equal(await search(pools[0]!), 401);

    const answered = (samples: ReturnType<typeof parseExposition>) =>
      sampleValue(samples, 'datapoints_http_requests_total', { route: searchPath, status: '200' });
    // Each edge posts its counts on its own timer: the refusal, asked last, may come after the answers.
    const samples = await eventually(
      scrape,
      (samples) =>
        answered(samples) === searches &&
        (sampleValue(samples, 'datapoints_http_requests_total', { route: searchPath, status: '401' }) ?? 0) >= 1 &&
        (sampleValue(samples, 'datapoints_collections_total', { platform: 'github', outcome: 'found' }) ?? 0) >= 1,
    );
    t.equal(answered(samples), searches, 'every answer of both edges, once');
    t.equal(sampleValue(samples, 'datapoints_http_requests_total', { route: searchPath, status: '401' }), 1);
    t.equal(sampleValue(samples, 'datapoints_admissions_refused_total', { reason: 'missing_token' }), 1);
    t.equal(sampleValue(samples, 'datapoints_collections_total', { platform: 'github', outcome: 'found' }), 1, 'octocat collected once');
    t.equal(sampleValue(samples, 'datapoints_circuit_breaker_state', { platform: 'github', state: 'closed' }), 1);
    t.equal(sampleValue(samples, 'datapoints_queue_depth', { queue: 'collection' }), 0);
    await Promise.all(pools.map((pool) => pool.close()));
  },
);

t.test('threads endpoints - during a graceful stop, a keep-alive client asking /readyz is told 503 stopping', async (t) => {
  const pool = new Pool(server.url, { connections: 1 });
  t.equal((await readyz(pool)).status, 200);
  const stopped = server.stop();
  const answers: Array<{ status: number; body: unknown }> = [];
  for (;;) {
    try {
      answers.push(await readyz(pool));
    } catch {
      break;
    }
  }
  await pool.destroy();
  t.equal(await stopped, 0);
  t.same(answers.at(-1), {
    status: 503,
    body: { ready: false, problems: [{ component: 'server', message: 'stopping: this server takes no more searches' }] },
  });
});

t.test('threads endpoints - a background failure of the resource thread makes every edge answer /readyz 503 with it', async (t) => {
  const failing = await serve(
    t,
    ['--data', tempDataDir(t), '--upstream', 'emulator', '--threads', '2'],
    ['--import', fixture('failingDueScan.mjs')],
  );
  const pools = Array.from({ length: 8 }, () => new Pool(failing.url, { connections: 1 }));
  for (const pool of pools) {
    const answer = await eventually(
      () => readyz(pool),
      (answer) => answer.status === 503,
    );
    t.equal(answer.status, 503);
    t.equal(answer.body.ready, false);
    t.match(answer.body.problems, [
      {
        component: 'due work',
        message: 'due work scan failed: MDB_BAD_TXN: transaction must abort',
        since: /^\d{4}-\d\d-\d\dT/,
        count: Number,
      },
    ]);
  }
  await Promise.all(pools.map((pool) => pool.close()));
  t.equal(await failing.stop(), 0);
});

t.test(
  'threads endpoints - a failing token last-used write: searches answered, the process lives, every edge shows it in /readyz',
  async (t) => {
    const data = tempDataDir(t);
    const { secret } = await provision(data, 'acme');
    const failing = await serve(
      t,
      ['--data', data, '--upstream', 'emulator', '--threads', '2'],
      ['--import', fixture('failingTokenTouch.mjs')],
    );
    const body = JSON.stringify({ resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] });
    const pools = Array.from({ length: 8 }, () => new Pool(failing.url, { connections: 1 }));
    // Each edge authenticates on its own: a search through every connection reaches both.
    for (const pool of pools) {
      const search = await pool.request({
        path: searchPath,
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body,
      });
      t.equal(search.statusCode, 200, 'the search is answered');
      await search.body.dump();
    }
    for (const pool of pools) {
      const answer = await eventually(
        () => readyz(pool),
        (answer) => answer.status === 503,
      );
      t.match(answer.body.problems, [
        { component: 'token bookkeeping', message: 'token last-used time not written: MDB_MAP_FULL: Environment mapsize limit reached' },
      ]);
    }
    await Promise.all(pools.map((pool) => pool.close()));
    t.equal(await failing.stop(), 0, 'the process lived to stop cleanly');
  },
);

t.test('threads endpoints - DATAPOINTS_METRICS sets the metrics address; a bad one is blamed on it', async (t) => {
  const data = tempDataDir(t);
  const configured = await serve(t, ['--data', data, '--upstream', 'emulator', '--threads', '1'], [], {
    DATAPOINTS_METRICS: '127.0.0.1:0',
  });
  const metricsUrl = configured.lines[1]!.slice('metrics on '.length);
  t.equal((await fetch(metricsUrl)).status, 200);
  t.equal(await configured.stop(), 0);
  const refused = await cliInProcess(['serve', '--data', data, '--port', '0'], { DATAPOINTS_METRICS: '9464' });
  t.equal(refused.status, 2);
  t.match(refused.stderr, "invalid DATAPOINTS_METRICS '9464': give HOST:PORT, e.g. 127.0.0.1:9464");
});
