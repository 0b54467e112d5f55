// /healthz and /readyz over real HTTP: no token, the readiness checks' problems as JSON.
import t from 'tap';
import { Health } from '../../src/health.js';
import { healthCheck, storageCheck, type ReadinessCheck } from '../../src/http/readiness.js';
import { openDatabases } from '../../src/store/environment.js';
import { startPublicApp } from '../helpers/publicApp.js';
import { tempDataDir } from '../helpers/service.js';

async function get(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  return { status: response.status, headers: response.headers, body: await response.json() };
}

t.test('health - /healthz answers alive without a token, never cached', async (t) => {
  const url = await startPublicApp(t, { readiness: [] });
  const answer = await get(`${url}/healthz`);
  t.equal(answer.status, 200);
  t.same(answer.body, { status: 'ok' });
  t.equal(answer.headers.get('cache-control'), 'no-store');
  t.equal(answer.headers.get('content-type'), 'application/json');
  t.match(answer.headers.get('x-request-id'), /^[0-9a-f]{8}-[0-9a-z]+$/);
});

t.test('health - /readyz is 200 while storage is open and Health is healthy, 503 with the problems otherwise', async (t) => {
  const dbs = openDatabases(tempDataDir(t));
  let clock = Date.UTC(2026, 10, 23, 12, 0, 0);
  const health = new Health(() => clock);
  const url = await startPublicApp(t, { readiness: [storageCheck(dbs.root), healthCheck(health)] });

  const ready = await get(`${url}/readyz`);
  t.equal(ready.status, 200);
  t.same(ready.body, { ready: true, problems: [] });
  t.equal(ready.headers.get('cache-control'), 'no-store');

  health.report('collection', 'collection pipeline failed; it restarts: boom');
  clock += 1_000;
  health.report('collection', 'collection pipeline failed; it restarts: boom again');
  const failing = await get(`${url}/readyz`);
  t.equal(failing.status, 503);
  t.same(failing.body, {
    ready: false,
    problems: [
      {
        component: 'collection',
        message: 'collection pipeline failed; it restarts: boom again',
        since: '2026-11-23T12:00:00.000Z',
        count: 2,
      },
    ],
  });

  health.clear('collection');
  t.same((await get(`${url}/readyz`)).body, { ready: true, problems: [] }, 'ready again once the problem clears');

  await dbs.root.close();
  const closed = await get(`${url}/readyz`);
  t.equal(closed.status, 503);
  t.same(closed.body, {
    ready: false,
    problems: [{ component: 'storage', message: 'LMDB environment not usable: Can not renew a transaction from a closed database' }],
  });
});

t.test('health - a readiness check that throws makes the service not ready, never a 500', async (t) => {
  const throwing: ReadinessCheck = () => {
    throw new Error('cluster state unknown');
  };
  const url = await startPublicApp(t, { readiness: [throwing] });
  const answer = await get(`${url}/readyz`);
  t.equal(answer.status, 503);
  t.same(answer.body, { ready: false, problems: [{ component: 'readiness', message: 'a readiness check failed: cluster state unknown' }] });
});

t.test('health - other methods are refused with 405 and Allow: GET', async (t) => {
  const url = await startPublicApp(t, { readiness: [] });
  for (const path of ['/healthz', '/readyz', '/api/v1/openapi.json']) {
    const answer = await get(url + path, { method: 'POST', body: '{}' });
    t.equal(answer.status, 405, `${path}: status`);
    t.equal(answer.headers.get('allow'), 'GET');
    t.same(answer.body, { error: 'Method POST is not allowed here; use GET' });
  }
});

t.test('health - answers are told to the metrics by route and status', async (t) => {
  const answered: Array<[string, string]> = [];
  const metrics = {
    requestAnswered: (route: string, status: string, seconds: number) => {
      t.ok(seconds >= 0 && seconds < 60, 'a duration in seconds');
      answered.push([route, status]);
    },
    admissionRefused: () => t.fail('no admission on a public route'),
    collectionEnded: () => t.fail('no collection on a public route'),
  };
  const url = await startPublicApp(t, { readiness: [() => [{ component: 'cluster', message: 'not connected' }]], metrics });
  await get(`${url}/healthz`);
  await get(`${url}/readyz`);
  await get(`${url}/healthz`, { method: 'DELETE' });
  t.same(answered, [
    ['/healthz', '200 OK'],
    ['/readyz', '503 Service Unavailable'],
    ['/healthz', '405 Method Not Allowed'],
  ]);
});
