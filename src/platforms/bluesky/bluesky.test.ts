import t from 'tap';
import type { ResourceRef } from '../../model.js';
import type { EmulatedCounts } from '../emulatorContract.js';
import { createUpstreamHttp } from '../http.js';
import { blueskyAccount, blueskyPost } from './identifiers.js';
import {
  collectorWithFixtures,
  emulatedCollectors,
  onFixedClock,
  fixedNow,
  fixture,
  fixtureHttp,
  foundOutcome,
  reply,
  signal,
  unparsable,
  refsTo,
} from '../../../test/helpers/platforms.js';

const account = refsTo('bluesky', 'account');
const post = refsTo('bluesky', 'post');

t.test('bluesky identifiers - full handle domains and handle:tid posts per atproto syntax', async (t) => {
  for (const ok of ['alice.bsky.social', 'Alice.Bsky.Social', 'bsky.app', 'a.co', 'xn--ls8h.test', `${'a'.repeat(63)}.com`])
    t.ok(blueskyAccount.pattern.test(ok), ok);
  for (const bad of [
    'alice',
    'alice.',
    '.bsky.social',
    '-alice.bsky.social',
    'alice-.bsky.social',
    'alice.1social',
    'alice.local',
    `${'a'.repeat(64)}.com`,
    `${`${'a'.repeat(63)}.`.repeat(4)}com`,
    'alice bsky.social',
    'https://bsky.app/profile/alice.bsky.social',
    '@alice.bsky.social',
    'alice_b.bsky.social',
    '',
  ])
    t.notOk(blueskyAccount.pattern.test(bad), bad);
  for (const ok of ['alice.bsky.social:3l6oveex3ii2l', 'Bsky.App:2222222222222']) t.ok(blueskyPost.pattern.test(ok), ok);
  for (const bad of [
    'alice.bsky.social',
    '3l6oveex3ii2l',
    'alice:3l6oveex3ii2l',
    'alice.bsky.social:3l6oveex3ii2',
    'alice.bsky.social:3l6oveex3ii2lx',
    'alice.bsky.social:kl6oveex3ii2l',
    'alice.bsky.social:3L6OVEEX3II2L',
    'alice.bsky.social/post/3l6oveex3ii2l',
    'alice.local:3l6oveex3ii2l',
  ])
    t.notOk(blueskyPost.pattern.test(bad), bad);
  t.equal(blueskyAccount.normalize('Alice.Bsky.Social'), 'alice.bsky.social');
  t.equal(blueskyPost.normalize('Alice.Bsky.Social:3l6oveex3ii2l'), 'alice.bsky.social:3l6oveex3ii2l');
  t.equal(blueskyPost.namePart('alice.bsky.social:3l6oveex3ii2l'), 'alice.bsky.social');
});

t.test('bluesky collector - one getProfiles and one getPosts call for a mixed batch', async (t) => {
  const http = fixtureHttp([
    [/getProfiles/, reply(200, fixture('bluesky', 'profiles.json'))],
    [/getPosts/, reply(200, fixture('bluesky', 'posts.json'))],
  ]);
  const outcomes = await collectorWithFixtures('bluesky', http).collect(
    [
      account('bsky.app'),
      post('bsky.app:3l6oveex3ii2l'),
      account('atproto.com'),
      account('nobody.bsky.social'),
      post('bsky.app:3l6oveex3ii2m'),
    ],
    signal,
  );
  t.same(http.calls, [
    'https://bluesky.example/xrpc/app.bsky.actor.getProfiles?actors=bsky.app&actors=atproto.com&actors=nobody.bsky.social',
    'https://bluesky.example/xrpc/app.bsky.feed.getPosts?uris=at%3A%2F%2Fdid%3Aplc%3Az72i7hdynmk6r22z27h6tvur%2Fapp.bsky.feed.post%2F3l6oveex3ii2l' +
      '&uris=at%3A%2F%2Fdid%3Aplc%3Az72i7hdynmk6r22z27h6tvur%2Fapp.bsky.feed.post%2F3l6oveex3ii2m',
  ]);
  t.same(outcomes, [
    {
      kind: 'found',
      datapoints: {
        metrics: {
          followers: { value: 32418806, semantic: 'followers' },
          following: { value: 8, semantic: 'following' },
          posts: { value: 735, semantic: 'posts' },
        },
      },
    },
    {
      kind: 'found',
      datapoints: {
        metrics: {
          views: { value: null, semantic: 'views' },
          likes: { value: 29847, semantic: 'likes' },
          reposts: { value: 3978, semantic: 'reposts' },
          replies: { value: 2331, semantic: 'replies' },
        },
      },
    },
    {
      kind: 'found',
      datapoints: {
        metrics: {
          followers: { value: 91564, semantic: 'followers' },
          following: { value: 12, semantic: 'following' },
          posts: { value: 211, semantic: 'posts' },
        },
      },
    },
    { kind: 'notFound' },
    { kind: 'notFound' },
  ]);
});

t.test('bluesky collector - a post whose author is unknown needs no getPosts call', async (t) => {
  const http = fixtureHttp([[/getProfiles/, reply(200, fixture('bluesky', 'profiles-none.json'))]]);
  t.same(await collectorWithFixtures('bluesky', http).collect([post('gone.bsky.social:3l6oveex3ii2l')], signal), [{ kind: 'notFound' }]);
  t.equal(http.calls.length, 1);
});

t.test('bluesky collector - maps rate limits, errors and bad bodies to distinct outcomes', async (t) => {
  const outcome = async (ref: ResourceRef, routes: Parameters<typeof fixtureHttp>[0]) =>
    (await collectorWithFixtures('bluesky', fixtureHttp(routes)).collect([ref], signal))[0];
  const reset = String(fixedNow / 1000 + 90);
  const limited = reply(429, fixture('bluesky', 'rate-limited.json'), { 'ratelimit-remaining': '0', 'ratelimit-reset': reset });
  t.same(await outcome(account('bsky.app'), [[/./, limited]]), { kind: 'rateLimited', retryAt: fixedNow + 90_000 });
  t.same(
    await outcome(post('bsky.app:3l6oveex3ii2l'), [
      [/getProfiles/, reply(200, fixture('bluesky', 'profiles.json'))],
      [/getPosts/, limited],
    ]),
    { kind: 'rateLimited', retryAt: fixedNow + 90_000 },
  );
  t.same(await outcome(account('bsky.app'), [[/./, reply(400, fixture('bluesky', 'invalid-request.json'))]]), {
    kind: 'failed',
    reason: 'unexpected upstream status 400',
  });
  t.same(await outcome(account('bsky.app'), [[/./, reply(502, 'Bad Gateway')]]), {
    kind: 'failed',
    reason: 'unexpected upstream status 502',
  });
  t.same(await outcome(account('bsky.app'), [[/./, reply(200, '{"profiles":[{"did":"did:plc:x","handle":"bsky.app"}]}')]]), unparsable);
  t.same(
    await outcome(post('bsky.app:3l6oveex3ii2l'), [
      [/getProfiles/, reply(200, fixture('bluesky', 'profiles.json'))],
      [/getPosts/, reply(200, '<html>')],
    ]),
    unparsable,
  );
  const thrown = await collectorWithFixtures('bluesky', {
    async get() {
      throw new Error('socket hang up');
    },
  }).collect([account('bsky.app'), post('bsky.app:3l6oveex3ii2l')], signal);
  t.same(thrown, [
    { kind: 'failed', reason: 'Error: socket hang up' },
    { kind: 'failed', reason: 'Error: socket hang up' },
  ]);
});

const accountFound = (counts: EmulatedCounts) =>
  foundOutcome({ followers: [counts.followers, 'followers'], following: [counts.following, 'following'], posts: [counts.posts, 'posts'] });

const postFound = (counts: EmulatedCounts) =>
  foundOutcome({
    views: [null, 'views'],
    likes: [counts.likes, 'likes'],
    reposts: [counts.reposts, 'reposts'],
    replies: [counts.replies, 'replies'],
  });

t.test('bluesky against the emulator - found, missing, flaky, faults, batching', async (t) => {
  const emulated = await emulatedCollectors();
  t.teardown(() => emulated.close());
  const user = await onFixedClock('bluesky', () => emulated.collect('bluesky', 'account', 'Alice.Bsky.Social'));
  t.same(user.result, accountFound(user.counts('account', 'alice.bsky.social')));
  const postOutcome = await onFixedClock('bluesky', () => emulated.collect('bluesky', 'post', 'alice.bsky.social:3l6oveex3ii2l'));
  t.same(postOutcome.result, postFound(postOutcome.counts('post', 'alice.bsky.social:3l6oveex3ii2l')));

  emulated.emulator.world.setFault('bluesky', 'alice.bsky.social', 'ratelimit');
  // The emulator's reset is a minute ahead, in whole seconds.
  t.same(
    await emulated.collect('bluesky', 'account', 'alice.bsky.social'),
    { kind: 'rateLimited', retryAt: fixedNow + 60_000 },
    'retry after its ratelimit-reset',
  );
  emulated.emulator.world.setFault('bluesky', 'alice.bsky.social', 'none');
  emulated.emulator.world.setFault('bluesky', 'alice.bsky.social:3l6oveex3ii2l', 'none');
  const batch = await onFixedClock('bluesky', () =>
    emulated.collectMany('bluesky', [
      ['account', 'alice.bsky.social'],
      ['post', 'alice.bsky.social:3l6oveex3ii2l'],
      ['account', 'missing-bob.bsky.social'],
    ]),
  );
  t.same(batch.result, [
    accountFound(batch.counts('account', 'alice.bsky.social')),
    postFound(batch.counts('post', 'alice.bsky.social:3l6oveex3ii2l')),
    { kind: 'notFound' },
  ]);
});

t.test('bluesky emulator - answers a batch in two upstream calls', async (t) => {
  const emulated = await emulatedCollectors();
  t.teardown(() => emulated.close());
  const realHttp = createUpstreamHttp();
  // Its keep-alive connections would hold the test's process open for seconds after the last test.
  t.teardown(() => realHttp.close());
  const calls: string[] = [];
  const collector = collectorWithFixtures('bluesky', {
    get: (url, headers, callSignal) => {
      calls.push(url);
      return realHttp.get(url.replace('https://bluesky.example', `${emulated.emulator.url}/bluesky`), headers, callSignal);
    },
  });
  const refs = Array.from({ length: 25 }, (_, index) =>
    index % 2 === 0 ? account(`user${index}.bsky.social`) : post(`user${index - 1}.bsky.social:3l6oveex3ii2l`),
  );
  const outcomes = await collector.collect(refs, signal);
  t.equal(calls.length, 2);
  t.same(
    outcomes.map((outcome) => outcome.kind),
    refs.map(() => 'found'),
  );
});
