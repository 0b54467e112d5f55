import t from 'tap';
import { validateSearch } from '../../api/validation.js';
import type { ResourceRef } from '../../model.js';
import { mastodonAccount, mastodonPost } from './identifiers.js';
import { statusAuthor } from './emulator.js';
import {
  collectorWithFixtures,
  emulatedCollectors,
  fixedNow,
  fixture,
  fixtureHttp,
  foundOutcome,
  onFixedClock,
  refsTo,
  reply,
  signal,
  unparsable,
} from '../../../test/helpers/platforms.js';

const account = refsTo('mastodon', 'account');
const post = refsTo('mastodon', 'post');
const accepted = (rule: typeof mastodonAccount, identifier: string) =>
  rule.pattern.test(identifier) && identifier.length <= rule.maxLength && (rule.refines?.accepts(identifier) ?? true);

t.test('mastodon identifiers - user@host accounts and user@host:<id> posts, hosts as DNS names', async (t) => {
  for (const ok of ['Gargron@mastodon.social', 'a@b.co', 'first.last@social.example.de', 'x_y-z@bücher.de', `u@${'a'.repeat(63)}.com`])
    t.ok(accepted(mastodonAccount, ok), ok);
  for (const bad of [
    'Gargron',
    '@Gargron@mastodon.social',
    'https://mastodon.social/@Gargron',
    'mastodon.social/@Gargron',
    '!community@lemmy.ml',
    'u/someone',
    'Gargron@mastodon',
    'Gargron@localhost',
    'Gargron@127.0.0.1',
    'Gargron@[::1]',
    'Gargron@mastodon.social:443',
    'a:b@mastodon.social',
    'a@b@mastodon.social',
    'Gargron@host.local',
    'Gargron@metadata.internal',
    'Gargron@example.example',
    'Gargron@169.254.169.254',
    'Gargron@1.2.3.4',
    'Gargron@-mastodon.social',
    `u@${'a'.repeat(64)}.com`,
    'Gargron@xn--a.com',
  ])
    t.notOk(accepted(mastodonAccount, bad), bad);
  for (const ok of [
    'Gargron@mastodon.social:1',
    'Gargron@mastodon.social:109372843234245678',
    'me@gts.example.org:01FBVD42CQ3ZEEVMW180SBX03B',
  ])
    t.ok(accepted(mastodonPost, ok), ok);
  for (const bad of [
    'mastodon.social:109372843234245678',
    'Gargron@mastodon.social',
    'Gargron@mastodon.social:12345678901234567890',
    'Gargron@mastodon.social:01fbvd42cq3zeevmw180sbx03b',
    'Gargron@mastodon.social:01FBVD42CQ3ZEEVMW180SBX03',
    'Gargron@mastodon.social:443:1',
  ])
    t.notOk(accepted(mastodonPost, bad), bad);

  t.equal(mastodonAccount.normalize('Gargron@Mastodon.Social'), 'gargron@mastodon.social');
  t.equal(mastodonAccount.normalize('anna@Bücher.de'), 'anna@xn--bcher-kva.de', 'an internationalized host as punycode');
  t.equal(mastodonAccount.normalize('x@ＭＡＳＴＯＤＯＮ.social'), 'x@mastodon.social', 'full-width letters map as IDNA maps them');
  t.equal(
    mastodonPost.normalize('Gargron@Mastodon.Social:01FBVD42CQ3ZEEVMW180SBX03B'),
    'gargron@mastodon.social:01FBVD42CQ3ZEEVMW180SBX03B',
  );
  t.equal(mastodonAccount.namePart('gargron@mastodon.social'), 'gargron');
  t.equal(mastodonPost.namePart('gargron@mastodon.social:1'), 'mastodon.social', "a post's conventions look at its server");
});

t.test('mastodon identifiers - each refusal says to send the plain user@server', async (t) => {
  const refusal = (identifier: string) => {
    const validation = validateSearch({ resources: [{ platform: 'mastodon', type: 'account', identifier }] });
    return validation.ok ? 'accepted' : validation.errors[0]!;
  };
  const opening = (identifier: string) =>
    `Resources identifier '${identifier}' is not valid on platform 'mastodon': send the plain user@server, not the URL (${mastodonAccount.syntax}); this one `;
  const cases: Array<[string, string]> = [
    ['https://mastodon.social/@Gargron', 'is a URL'],
    ['u/someone', "contains '/'"],
    ['!community@lemmy.ml', "contains '!', which is not allowed"],
    ['@Gargron@mastodon.social', 'does not fit that form'],
    ['Gargron@host.local', 'names no server on the internet (an address, a special-use name or a name IDNA refuses)'],
    ['Gargron@1.2.3.4', 'does not fit that form'],
  ];
  for (const [identifier, problem] of cases) t.equal(refusal(identifier), opening(identifier) + problem, identifier);
  t.equal(refusal('Gargron@mastodon.social'), 'accepted');
});

t.test("mastodon collector - reads the documentation's Account and Status bodies on the home server", async (t) => {
  const http = fixtureHttp([
    [/^https:\/\/awoo\.space\/api\/v1\/accounts\/lookup\?acct=noiob$/, reply(200, fixture('mastodon', 'account.json'))],
    [/^https:\/\/mastodon\.social\/api\/v1\/statuses\/103270115826048975$/, reply(200, fixture('mastodon', 'status.json'))],
  ]);
  const outcomes = await collectorWithFixtures('mastodon', http).collect(
    [account('noiob@awoo.space'), post('trwnh@mastodon.social:103270115826048975')],
    signal,
  );
  t.same(outcomes, [
    foundOutcome({ followers: [547, 'followers'], following: [404, 'following'], posts: [28468, 'posts'] }),
    foundOutcome({ views: [null, 'views'], likes: [11, 'favourites'], reposts: [6, 'boosts'], replies: [5, 'replies'] }),
  ]);
  t.same(http.calls, [
    'https://awoo.space/api/v1/accounts/lookup?acct=noiob',
    'https://mastodon.social/api/v1/statuses/103270115826048975',
  ]);
});

t.test('mastodon collector - 404 is not_found; 401 and 403 fail with the reason; 429 waits for the ISO reset', async (t) => {
  const outcome = async (ref: ResourceRef, response: ReturnType<typeof reply>) =>
    (await collectorWithFixtures('mastodon', fixtureHttp([[/./, response]])).collect([ref], signal))[0];
  const gargron = account('gargron@mastodon.social');
  t.same(await outcome(gargron, reply(404, fixture('mastodon', 'not-found.json'))), { kind: 'notFound' });
  t.same(await outcome(post('gargron@mastodon.social:1'), reply(404, fixture('mastodon', 'not-found.json'))), { kind: 'notFound' });
  t.same(await outcome(gargron, reply(401, fixture('mastodon', 'unauthorized.json'))), {
    kind: 'failed',
    reason: 'mastodon.social answers 401 to reads without an account: This API requires an authenticated user',
  });
  t.same(await outcome(gargron, reply(403, '<html>Forbidden</html>')), {
    kind: 'failed',
    reason: 'mastodon.social answers 403 to reads without an account',
  });
  const reset = new Date(fixedNow + 150_000).toISOString();
  t.same(
    await outcome(
      gargron,
      reply(429, fixture('mastodon', 'rate-limited.json'), { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }),
    ),
    { kind: 'rateLimited', retryAt: fixedNow + 150_000 },
  );
  t.same(await outcome(gargron, reply(429, '{}', { 'retry-after': '30' })), { kind: 'rateLimited', retryAt: fixedNow + 30_000 });
  t.same(await outcome(gargron, reply(503, 'Service Unavailable')), { kind: 'failed', reason: 'unexpected upstream status 503' });
  t.same(await outcome(gargron, reply(200, '{"id":"1","username":"gargron"}')), unparsable);
  t.same(await outcome(gargron, reply(200, '{"followers_count":-1}')), unparsable);
  t.same(await outcome(gargron, reply(200, '<html>')), unparsable);
});

t.test('mastodon against the emulator - any server under /mastodon/<host>, its own conventions', async (t) => {
  const emulated = await emulatedCollectors();
  t.teardown(() => emulated.close());
  const user = await onFixedClock('mastodon', () => emulated.collect('mastodon', 'account', 'Alice@Social.Example.Org'));
  const counts = user.counts('account', 'alice@social.example.org');
  t.same(
    user.result,
    foundOutcome({
      followers: [counts.followers, 'followers'],
      following: [counts.following, 'following'],
      posts: [counts.posts, 'posts'],
    }),
  );
  const status = await onFixedClock('mastodon', () => emulated.collect('mastodon', 'post', 'alice@fosstodon.org:113000000000000001'));
  const statusCounts = status.counts('post', `${statusAuthor}@fosstodon.org:113000000000000001`);
  t.same(
    status.result,
    foundOutcome({
      views: [null, 'views'],
      likes: [statusCounts.likes, 'favourites'],
      reposts: [statusCounts.reposts, 'boosts'],
      replies: [statusCounts.replies, 'replies'],
    }),
  );

  t.same(
    await emulated.collect('mastodon', 'account', 'alice@flaky.example.org'),
    { kind: 'failed', reason: 'unexpected upstream status 503' },
    'a flaky server is down for every account',
  );
  t.same(await emulated.collect('mastodon', 'account', 'missing-bob@fosstodon.org'), { kind: 'notFound' });
  emulated.emulator.world.setFault('mastodon', 'alice@fosstodon.org', 'ratelimit');
  t.same(
    await emulated.collect('mastodon', 'account', 'alice@fosstodon.org'),
    { kind: 'rateLimited', retryAt: fixedNow + 60_000 },
    'the ISO reset is read',
  );
});
