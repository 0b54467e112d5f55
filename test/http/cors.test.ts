// Browser access (docs/http.md#cors): off by default, opt-in per origin; tested over real
// HTTP with the requests a browser sends.
import t from 'tap';
import { parseCorsOrigins } from '../../src/http/cors.js';
import { searchPath, startTestService } from '../helpers/service.js';

const app = 'https://app.example.com';
const corsHeaderNames = (headers: Headers) => [...headers.keys()].filter((name) => name.startsWith('access-control-') || name === 'vary');
const exposed =
  'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Quota-Limit, X-Quota-Remaining, X-Quota-Reset, Retry-After, X-Request-Id';

const preflight = (url: string, origin: string) =>
  fetch(url + searchPath, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
  });

t.test('cors - without --cors: no CORS header anywhere, OPTIONS is 405 with Allow', async (t) => {
  const { url, tokenFor, search } = await startTestService(t);
  const token = await tokenFor('plain');
  const options = await preflight(url, app);
  t.equal(options.status, 405);
  t.equal(options.headers.get('allow'), 'POST');
  t.same(await options.json(), { error: 'Method OPTIONS is not allowed here; use POST' });
  t.same(corsHeaderNames(options.headers), []);
  const answer = await search(token, { resources: [] }, { origin: app });
  t.equal(answer.status, 422);
  t.same(corsHeaderNames(answer.headers), []);
});

t.test('cors - preflight from an allowed origin', async (t) => {
  const { url } = await startTestService(t, { cors: parseCorsOrigins(`${app}, http://localhost:3000`) });
  for (const origin of [app, 'http://localhost:3000']) {
    const answer = await preflight(url, origin);
    t.equal(answer.status, 204, origin);
    t.equal(answer.headers.get('access-control-allow-origin'), origin);
    t.equal(answer.headers.get('vary'), 'Origin');
    t.equal(answer.headers.get('access-control-allow-methods'), 'POST');
    t.equal(answer.headers.get('access-control-allow-headers'), 'Authorization, Content-Type');
    t.equal(answer.headers.get('access-control-max-age'), '600');
    t.equal(answer.headers.get('allow'), 'POST, OPTIONS');
    t.equal(answer.headers.get('content-length'), null);
    t.equal(await answer.text(), '');
  }
  const refused = await preflight(url, 'https://evil.example');
  t.equal(refused.status, 204);
  t.same(corsHeaderNames(refused.headers), ['vary'], 'nothing a browser would accept');
  const other = await fetch(url + searchPath, { method: 'PUT' });
  t.equal(other.status, 405);
  t.equal(other.headers.get('allow'), 'POST, OPTIONS');
});

t.test('cors - every answer to an allowed origin names it and exposes the limit headers', async (t) => {
  const { url, tokenFor, search } = await startTestService(t, { cors: parseCorsOrigins(app) });
  const token = await tokenFor('browser', { quota: 500, rate: { limit: 1, windowMs: 60_000 } });
  const body = { resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] };
  const ok = await search(token, body, { origin: app });
  const limited = await search(token, body, { origin: app });
  const unauthorized = await search(undefined, body, { origin: app });
  const other = await tokenFor('uploader', { plan: 'paid' });
  const tooLarge = await fetch(url + searchPath, {
    method: 'POST',
    headers: { origin: app, authorization: `Bearer ${other}` },
    body: ' '.repeat(2 << 20),
  });
  for (const [name, answer, status] of [
    ['200', ok, 200],
    ['429', limited, 429],
    ['401', unauthorized, 401],
    ['413', tooLarge, 413],
  ] as const) {
    t.equal(answer.status, status, name);
    t.equal(answer.headers.get('access-control-allow-origin'), app, name);
    t.equal(answer.headers.get('vary'), 'Origin', name);
    t.equal(answer.headers.get('access-control-expose-headers'), exposed, name);
  }
  const elsewhere = await search(token, body, { origin: 'https://evil.example' });
  t.same(corsHeaderNames(elsewhere.headers), ['vary'], 'another origin gets no allow-origin');
  const noOrigin = await search(token, body);
  t.same(corsHeaderNames(noOrigin.headers), ['vary'], 'a request without Origin (not a browser)');
});

t.test('cors - * allows every origin, echoed', async (t) => {
  const { url } = await startTestService(t, { cors: parseCorsOrigins('*') });
  const answer = await preflight(url, 'https://anywhere.example');
  t.equal(answer.headers.get('access-control-allow-origin'), 'https://anywhere.example');
});

t.test('cors - origins are parsed strictly', async (t) => {
  t.same(
    [...(parseCorsOrigins(' https://a.example ,http://b.example:8080') as Set<string>)],
    ['https://a.example', 'http://b.example:8080'],
  );
  for (const bad of [
    'https://a.example/',
    'https://a.example/app',
    'a.example',
    'ftp://a.example',
    '',
    'https://a.example,',
    '*,https://a.example',
  ]) {
    t.throws(() => parseCorsOrigins(bad), { message: /is not an origin: give scheme:\/\/host\[:port\]/ }, JSON.stringify(bad));
  }
});
