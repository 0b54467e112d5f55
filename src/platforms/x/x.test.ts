import t from 'tap';
import type { ResourceRef, ResourceType } from '../../model.js';
import type { EmulatedCounts } from '../emulatorContract.js';
import { createUpstreamHttp } from '../http.js';
import { emulatedAuthor } from './emulator.js';
import { snowflakeTime, viewCountingSince, xAccount, xPost } from './identifiers.js';
import {
  collectorWithFixtures,
  emulatedCollectors,
  fixedNow,
  fixture,
  fixtureHttp,
  foundOutcome,
  onFixedClock,
  reply,
  signal,
  unparsable,
  refsTo,
} from '../../../test/helpers/platforms.js';

const account = refsTo('x', 'account');
const post = refsTo('x', 'post');

const accountFound = (followers: number, following: number, posts: number, verified: boolean) =>
  foundOutcome(
    { followers: [followers, 'followers'], following: [following, 'following'], posts: [posts, 'posts'] },
    { verified: [verified, 'verified'] },
  );
const postFound = (views: number | null, likes: number, reposts: number, replies: number) =>
  foundOutcome({ views: [views, 'views'], likes: [likes, 'likes'], reposts: [reposts, 'reposts'], replies: [replies, 'replies'] });

t.test('x identifiers - usernames and username:id posts per X syntax', async (t) => {
  for (const ok of ['XDevelopers', 'x', 'a_b_1', 'y'.repeat(15)]) t.ok(xAccount.pattern.test(ok), ok);
  for (const bad of ['y'.repeat(16), '@XDevelopers', 'x-dev', 'x.dev', 'x dev', 'https://x.com/XDevelopers', ''])
    t.notOk(xAccount.pattern.test(bad), bad);
  for (const ok of ['XDevelopers:1879940396483490144', 'x:1', 'x:9223372036854775807']) t.ok(xPost.pattern.test(ok), ok);
  for (const bad of [
    '1879940396483490144',
    'XDevelopers',
    'XDevelopers:',
    'XDevelopers:01',
    'XDevelopers:18799403964834901440',
    'XDevelopers:abc',
    'XDevelopers/status/1879940396483490144',
    '@XDevelopers:1879940396483490144',
  ])
    t.notOk(xPost.pattern.test(bad), bad);
  t.equal(xAccount.normalize('XDevelopers'), 'xdevelopers');
  t.equal(xPost.normalize('XDevelopers:1879940396483490144'), 'xdevelopers:1879940396483490144');
  t.equal(xPost.namePart('xdevelopers:1879940396483490144'), 'xdevelopers');
});

t.test('x snowflakes - creation time decides whether views were counted', async (t) => {
  t.equal(snowflakeTime('1879940396483490144'), Date.UTC(2025, 0, 16, 17, 14, 52, 782));
  t.equal(snowflakeTime('1460323737035677698'), Date.UTC(2021, 10, 15, 19, 8, 5, 69));
  t.ok(snowflakeTime('1598000000000000000') < viewCountingSince, 'late November 2022 is before view counting');
  t.ok(snowflakeTime('1599000000000000000') >= viewCountingSince, 'early December 2022 is counted');
  t.equal(snowflakeTime('20'), 1288834974657, 'pre-snowflake ids are old');
});

t.test('x collector - one users/by and one tweets call for a mixed batch, exact datapoints', async (t) => {
  const http = fixtureHttp([
    [/\/2\/users\/by\?/, reply(200, fixture('x', 'users.json'))],
    [/\/2\/tweets\?/, reply(200, fixture('x', 'tweets.json'))],
  ]);
  const outcomes = await collectorWithFixtures('x', http).collect(
    [
      account('xdevelopers'),
      post('xdevelopers:1879940396483490144'),
      account('x'),
      post('xdevelopers:1460323737035677698'),
      post('xdevelopers:1598000000000000000'),
      post('xdevelopers:1111111111111111111'),
      post('xdevelopers:1222222222222222222'),
      account('nobody_here_42'),
      post('nobody_here_42:1879940396483490144'),
      account('suspended_acct'),
    ],
    signal,
  );
  t.same(http.calls, [
    'https://x.example/2/users/by?usernames=xdevelopers%2Cx%2Cnobody_here_42%2Csuspended_acct&user.fields=public_metrics%2Cverified',
    'https://x.example/2/tweets?ids=1879940396483490144%2C1460323737035677698%2C1598000000000000000%2C1111111111111111111%2C1222222222222222222' +
      '&tweet.fields=author_id%2Cpublic_metrics',
  ]);
  t.same(outcomes, [
    accountFound(706312, 1982, 4218, true),
    postFound(201544, 902, 118, 64),
    accountFound(68471290, 0, 15821, false),
    postFound(null, 1014, 233, 164),
    { kind: 'notFound' },
    { kind: 'notFound' },
    { kind: 'failed', reason: 'x: Sorry, you are not authorized to see the Tweet with ids: [1222222222222222222].' },
    { kind: 'notFound' },
    { kind: 'notFound' },
    { kind: 'notFound' },
  ]);
});

t.test('x collector - sends the bearer token; posts of unknown authors need no tweets call', async (t) => {
  const seen: Array<Record<string, string>> = [];
  const outcomes = await collectorWithFixtures('x', {
    async get(_url, headers) {
      seen.push(headers);
      return reply(200, fixture('x', 'user-not-found.json'));
    },
  }).collect([post('nobody_here_42:1879940396483490144')], signal);
  t.same(outcomes, [{ kind: 'notFound' }]);
  t.equal(seen.length, 1);
  t.equal(seen[0]!.authorization, 'Bearer test-credential');
});

t.test('x collector - maps rate limits, errors and bad bodies to distinct outcomes', async (t) => {
  const outcome = async (ref: ResourceRef, routes: Parameters<typeof fixtureHttp>[0]) =>
    (await collectorWithFixtures('x', fixtureHttp(routes)).collect([ref], signal))[0];
  const users = reply(200, fixture('x', 'users.json'));
  const reset = String(fixedNow / 1000 + 600);
  const limited = reply(429, fixture('x', 'rate-limited.json'), { 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': reset });
  t.same(await outcome(account('xdevelopers'), [[/./, limited]]), { kind: 'rateLimited', retryAt: fixedNow + 600_000 });
  t.same(
    await outcome(post('xdevelopers:1879940396483490144'), [
      [/users/, users],
      [/tweets/, limited],
    ]),
    { kind: 'rateLimited', retryAt: fixedNow + 600_000 },
  );
  t.same(await outcome(account('xdevelopers'), [[/./, reply(401, fixture('x', 'unauthorized.json'))]]), {
    kind: 'failed',
    reason: 'unexpected upstream status 401',
  });
  t.same(await outcome(account('xdevelopers'), [[/./, reply(503, 'Service Unavailable')]]), {
    kind: 'failed',
    reason: 'unexpected upstream status 503',
  });
  t.same(await outcome(account('xdevelopers'), [[/./, reply(200, '{"data":[{"id":"1","username":"xdevelopers"}]}')]]), unparsable);
  t.same(await outcome(account('xdevelopers'), [[/./, reply(200, '{}')]]), {
    kind: 'failed',
    reason: "x answered nothing about 'xdevelopers'",
  });
  t.same(
    await outcome(post('xdevelopers:1879940396483490144'), [
      [/users/, users],
      [/tweets/, reply(200, '{"data":[{"id":')],
    ]),
    unparsable,
  );
  const thrown = await collectorWithFixtures('x', {
    async get() {
      throw new Error('connect ECONNREFUSED');
    },
  }).collect([account('x'), post('x:1879940396483490144')], signal);
  t.same(thrown, [
    { kind: 'failed', reason: 'Error: connect ECONNREFUSED' },
    { kind: 'failed', reason: 'Error: connect ECONNREFUSED' },
  ]);
});

const emulatedAccount = (counts: EmulatedCounts) => accountFound(counts.followers, counts.following, counts.posts, counts.verified);
/** Emulated tweets are keyed by id under the one emulated author (see emulator.ts). */
const emulatedPost = (counts: (type: ResourceType, normalized: string) => EmulatedCounts, id: string) => {
  const { views, likes, reposts, replies } = counts('post', `${emulatedAuthor}:${id}`);
  return postFound(snowflakeTime(id) >= viewCountingSince ? views : null, likes, reposts, replies);
};

t.test('x against the emulator - found, old posts, missing, flaky, rounded, faults', async (t) => {
  const emulated = await emulatedCollectors();
  t.teardown(() => emulated.close());
  const user = await onFixedClock('x', () => emulated.collect('x', 'account', 'XDevelopers'));
  t.same(user.result, emulatedAccount(user.counts('account', 'xdevelopers')));
  const recent = await onFixedClock('x', () => emulated.collect('x', 'post', 'XDevelopers:1879940396483490144'));
  t.same(recent.result, emulatedPost(recent.counts, '1879940396483490144'));
  const old = await onFixedClock('x', () => emulated.collect('x', 'post', 'XDevelopers:1460323737035677698'));
  t.same(old.result, emulatedPost(old.counts, '1460323737035677698'));
  t.equal((old.result as ReturnType<typeof postFound>).datapoints.metrics.views.value, null);
  // X's API gives exact counts; only its web pages round (docs/api.md#a-17).
  const rounded = await onFixedClock('x', () => emulated.collect('x', 'account', 'rounded_user'));
  t.same(rounded.result, emulatedAccount(rounded.counts('account', 'rounded_user')));

  emulated.emulator.world.setFault('x', 'XDevelopers', 'ratelimit');
  t.same(
    await emulated.collect('x', 'post', 'xdevelopers:1879940396483490144'),
    { kind: 'rateLimited', retryAt: fixedNow + 60_000 },
    'retry after x-rate-limit-reset',
  );
  emulated.emulator.world.setFault('x', 'XDevelopers', 'none');
  emulated.emulator.world.setFault('x', `${emulatedAuthor}:1879940396483490144`, 'notfound');
  t.same(await emulated.collect('x', 'post', 'xdevelopers:1879940396483490144'), { kind: 'notFound' });
  emulated.emulator.world.setFault('x', `${emulatedAuthor}:1879940396483490144`, 'none');
  emulated.emulator.world.setFault('x', '*', 'ratelimit');
  t.equal((await emulated.collect('x', 'post', 'xdevelopers:1879940396483490144')).kind, 'rateLimited');
  emulated.emulator.world.setFault('x', '*', 'none');
  const again = await onFixedClock('x', () => emulated.collect('x', 'account', 'xdevelopers'));
  t.same(again.result, emulatedAccount(again.counts('account', 'xdevelopers')));
});

t.test('x against the emulator - 100 accounts and posts in two upstream calls', async (t) => {
  const emulated = await emulatedCollectors();
  t.teardown(() => emulated.close());
  const realHttp = createUpstreamHttp();
  // Its keep-alive connections would hold the test's process open for seconds after the last test.
  t.teardown(() => realHttp.close());
  const calls: string[] = [];
  const collector = collectorWithFixtures('x', {
    get: (url, headers, callSignal) => {
      calls.push(url);
      return realHttp.get(url.replace('https://x.example', `${emulated.emulator.url}/x`), headers, callSignal);
    },
  });
  const refs = Array.from({ length: 100 }, (_, index) =>
    index % 2 === 0 ? account(`user${index}`) : post(`user${index - 1}:${1879940396483490144n + BigInt(index)}`),
  );
  refs[0] = account('missing_0');
  const { result, counts } = await onFixedClock('x', () => collector.collect(refs, signal));
  t.equal(calls.length, 2);
  t.same(
    result,
    refs.map((ref) =>
      ref.identifier === 'missing_0'
        ? { kind: 'notFound' }
        : ref.type === 'post'
          ? emulatedPost(counts, ref.identifier.split(':')[1]!)
          : emulatedAccount(counts('account', ref.identifier)),
    ),
  );
});

t.test('x emulator - refuses requests without a bearer token, as X does', async (t) => {
  const emulated = await emulatedCollectors();
  t.teardown(() => emulated.close());
  const http = createUpstreamHttp();
  t.teardown(() => http.close());
  const response = await http.get(`${emulated.emulator.url}/x/2/users/by?usernames=xdevelopers`, {}, signal);
  t.equal(response.status, 401);
  t.same(JSON.parse(response.body), JSON.parse(fixture('x', 'unauthorized.json')));
});
