// 10,000 generated hostile requests over keep-alive, with concurrency: no 5xx, no crash, and
// every answer in its documented shape (docs/api.md#errors).
import t from 'tap';
import { Pool } from 'undici';
import { searchPath, startTestService } from '../helpers/service.js';
import { hostileRequests } from './hostileRequests.js';

const requestCount = 10_000;
const concurrency = 32;

/** What the status must be, and that the body has exactly the documented keys and types. */
function shapeProblem(status: number, body: string, authorized: boolean, wwwAuthenticate: string | undefined): string | undefined {
  if (status >= 500) return `server error ${status}`;
  if (!authorized) {
    if (status !== 401) return `unauthorized request answered ${status}`;
    if (!wwwAuthenticate?.startsWith('Bearer realm="datapoints"')) return `401 without WWW-Authenticate: ${wwwAuthenticate}`;
  } else if (![200, 413, 422].includes(status)) {
    return `authorized request answered ${status}`;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `body is not JSON: ${body.slice(0, 80)}`;
  }
  const keys = parsed !== null && typeof parsed === 'object' ? Object.keys(parsed) : [];
  const value = (parsed as Record<string, unknown>)[keys[0] ?? ''];
  if (status === 200) return keys.join() === 'data' && Array.isArray(value) ? undefined : `200 body ${body.slice(0, 80)}`;
  if (status === 422) {
    const ok =
      keys.join() === 'errors' &&
      Array.isArray(value) &&
      value.length > 0 &&
      value.every((message) => typeof message === 'string' && message !== '');
    return ok ? undefined : `422 body ${body.slice(0, 80)}`;
  }
  return keys.join() === 'error' && typeof value === 'string' && value !== '' ? undefined : `${status} body ${body.slice(0, 80)}`;
}

t.test('fuzz - 10,000 hostile requests: no 5xx, no crash, every error in the documented shape', async (t) => {
  const ts = await startTestService(t);
  const token = await ts.tokenFor('fuzzer', { plan: 'paid', quota: null, rate: { limit: 1_000_000_000, windowMs: 60_000 } });
  const requests = hostileRequests(token, requestCount, 20_261_123);
  const pool = new Pool(ts.url, { connections: concurrency });
  t.teardown(() => pool.close());

  const statuses = new Map<number, number>();
  const problems: string[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < requests.length) {
      const index = next++;
      const request = requests[index]!;
      const response = await pool.request({ path: searchPath, method: 'POST', headers: request.headers, body: request.body });
      const text = await response.body.text();
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      const header = response.headers['www-authenticate'];
      const problem = shapeProblem(response.statusCode, text, request.authorized, Array.isArray(header) ? header[0] : header);
      if (problem)
        problems.push(`#${index} ${JSON.stringify(request.headers).slice(0, 120)} ${request.body.subarray(0, 80).toString()}: ${problem}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  t.comment(`${requests.length} requests in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries(statuses))}`);

  t.same(problems.slice(0, 20), [], 'every answer has the documented status and shape');
  t.equal(
    [...statuses.values()].reduce((sum, count) => sum + count, 0),
    requestCount,
    'every request was answered',
  );
  t.ok((statuses.get(200) ?? 0) > 0 && (statuses.get(422) ?? 0) > 0 && (statuses.get(401) ?? 0) > 0, 'the mix reached 200, 401 and 422');
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype is not polluted');
  const after = await ts.search(token, { resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] });
  t.equal(after.status, 200, 'the service still answers afterwards');
});
