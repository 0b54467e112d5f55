// Tokens, quota and rate limit over HTTP (docs/api.md#a-35, docs/api.md#limits, docs/api.md#order-of-checks).
import t from 'tap';
import { eventually, startTestService } from '../helpers/service.js';

const body = { resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] };

t.test('access - 401 without a usable token, with the RFC 6750 challenge', async (t) => {
  const { search, tokenFor } = await startTestService(t);
  await tokenFor('alice');
  const missing = await search(undefined, body);
  t.equal(missing.status, 401);
  t.equal(missing.headers.get('www-authenticate'), 'Bearer realm="datapoints"');
  t.same(missing.body, { error: 'Authentication required: send Authorization: Bearer <API_TOKEN>' });
  t.equal(missing.headers.get('x-ratelimit-limit'), null, 'no limits are told to an unknown caller');
  const unknown = await search('dp_not-a-real-token', body);
  t.equal(unknown.status, 401);
  t.equal(
    unknown.headers.get('www-authenticate'),
    'Bearer realm="datapoints", error="invalid_token", error_description="The bearer token is unknown or revoked"',
  );
  t.same(unknown.body, { error: 'The bearer token is unknown or revoked' });
});

t.test('access - headers of docs/api.md#a-48 on every authenticated answer', async (t) => {
  const { search, tokenFor } = await startTestService(t);
  const token = await tokenFor('alice', { quota: 5, rate: { limit: 100, windowMs: 60_000 } });
  const answer = await search(token, body);
  const now = Date.now();
  t.equal(answer.status, 200);
  t.equal(answer.headers.get('x-ratelimit-limit'), '100');
  t.equal(answer.headers.get('x-ratelimit-remaining'), '99');
  const reset = Number(answer.headers.get('x-ratelimit-reset'));
  t.ok(reset * 1000 > now && reset * 1000 <= now + 61_000, `reset ${reset} is the end of this minute`);
  t.equal(answer.headers.get('x-quota-limit'), '5');
  t.equal(answer.headers.get('x-quota-remaining'), '4');
  const next = new Date(now);
  t.equal(
    answer.headers.get('x-quota-reset'),
    new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 1)).toISOString().slice(0, 10),
  );
  const invalid = await search(token, { resources: [] });
  t.equal(invalid.status, 422);
  t.equal(invalid.headers.get('x-quota-remaining'), '3', 'a 422 counts (docs/api.md#a-46)');
});

t.test('access - the monthly quota refuses with 403 and its reset date, uncounted (docs/api.md#a-49)', async (t) => {
  const { search, tokenFor, service } = await startTestService(t);
  const token = await tokenFor('alice', { quota: 2 });
  t.equal((await search(token, body)).status, 200);
  t.equal((await search(token, body)).status, 200);
  const refused = await search(token, body);
  t.equal(refused.status, 403);
  const resetsOn = refused.headers.get('x-quota-reset');
  t.same(refused.body, { error: `Monthly quota of 2 requests exhausted; it resets on ${resetsOn}` });
  t.equal(refused.headers.get('x-quota-remaining'), '0');
  t.ok(service.accounts.account('alice'));
});

t.test('access - tokens of one account share one rate-limit pool; 429 carries Retry-After', async (t) => {
  const { search, tokenFor } = await startTestService(t);
  const first = await tokenFor('alice', { quota: null, rate: { limit: 3, windowMs: 60_000 } });
  const second = await tokenFor('alice');
  const other = await tokenFor('bob', { quota: null, rate: { limit: 3, windowMs: 60_000 } });
  t.same([(await search(first, body)).status, (await search(second, body)).status, (await search(first, body)).status], [200, 200, 200]);
  const limited = await search(second, body);
  t.equal(limited.status, 429);
  t.equal(limited.headers.get('x-ratelimit-remaining'), '0');
  const retryAfter = Number(limited.headers.get('retry-after'));
  t.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  t.same(limited.body, { error: `Rate limit exceeded; retry after ${retryAfter} seconds` });
  t.equal((await search(other, body)).status, 200, 'another account has its own pool');
});

t.test('access - quota is checked before the rate limit, and refusals are not counted', async (t) => {
  const { search, tokenFor, service } = await startTestService(t);
  const token = await tokenFor('alice', { quota: 3, rate: { limit: 2, windowMs: 60_000 } });
  t.equal((await search(token, body)).status, 200);
  t.equal((await search(token, body)).status, 200);
  t.equal((await search(token, body)).status, 429);
  t.equal((await search(token, body)).status, 429);
  const account = service.accounts.account('alice')!;
  t.equal(account.quota, 3);
  const quotaAnswer = await search(token, body);
  t.equal(quotaAnswer.headers.get('x-quota-remaining'), '1', '429s did not use the quota');
});

t.test('access - a revoked token is refused at once, a new token works (within 1 s, docs/operations.md#commands)', async (t) => {
  const { search, tokenFor, service } = await startTestService(t);
  const token = await tokenFor('alice');
  t.equal((await search(token, body)).status, 200);
  const [record] = service.accounts.tokensOf('alice');
  await service.accounts.revokeToken(record!.id, new Date().toISOString());
  // The server notices on its next poll of the auth version: waited for, within the promised 1 s.
  const refused = await eventually(
    () => search(token, body),
    (answer) => answer.status === 401,
    1_000,
  );
  t.equal(refused.status, 401);
  t.match(refused.headers.get('www-authenticate'), /error="invalid_token"/);
  t.equal((await search(await tokenFor('alice'), body)).status, 200);
});

t.test('access - a suspended account is refused with 403, uncounted, until it is resumed (docs/api.md#a-53)', async (t) => {
  const { search, tokenFor, service } = await startTestService(t);
  const token = await tokenFor('alice', { quota: 100 });
  let served = 0;
  const counted = async () => {
    const answer = await search(token, body);
    if (answer.status === 200) served += 1;
    return answer;
  };
  await counted();
  await service.accounts.suspendAccount('alice', new Date().toISOString(), 'chargeback 4411');
  const refused = await eventually(counted, (answer) => answer.status === 403, 1_000);
  t.equal(refused.status, 403, 'refused within one second');
  t.same(refused.body, { error: 'This account is suspended; its requests are refused until the operator resumes it' });
  t.notMatch(JSON.stringify(refused.body), /chargeback/, 'the reason stays with the operator');
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-quota-limit', 'x-quota-remaining']) {
    t.equal(refused.headers.get(name), null, `no ${name}`);
  }
  t.equal((await search(token, { resources: [] })).status, 403, 'refused before the body is judged');
  await service.accounts.resumeAccount('alice');
  const resumed = await eventually(counted, (answer) => answer.status === 200, 1_000);
  t.equal(resumed.status, 200, 'served again within one second');
  t.equal(resumed.headers.get('x-quota-remaining'), String(100 - served), 'only the requests served were counted');
});
