import t from 'tap';
import { redditPost, redditSubreddit, redditUser } from './identifiers.js';
import { userAgent } from './collector.js';
import { createCollectors } from '../collectors.js';
import type { UpstreamHttp } from '../http.js';
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

const user = refsTo('reddit', 'account');
const subreddit = refsTo('reddit', 'community');
const post = refsTo('reddit', 'post');
const anonymous = { REDDIT_CLIENT_ID: undefined, REDDIT_CLIENT_SECRET: undefined };

const userFound = (subscribers: number | null) =>
  foundOutcome({ followers: [subscribers, 'subscribers'], following: [null, 'following'], posts: [null, 'posts'] });
const subredditFound = (subscribers: number) => foundOutcome({ followers: [subscribers, 'subscribers'], posts: [null, 'posts'] });
const postFound = (score: number | null, crossposts: number, comments: number) =>
  foundOutcome({ views: [null, 'views'], likes: [score, 'score'], reposts: [crossposts, 'crossposts'], replies: [comments, 'comments'] });

t.test('reddit identifiers - usernames, subreddit names and post ids, without u/, r/ or the URL', async (t) => {
  for (const ok of ['spez', 'Watchful1', 'a-b_c', 'x'.repeat(20)]) t.ok(redditUser.pattern.test(ok), ok);
  for (const bad of ['u/spez', '/u/spez', 'sp', 'x'.repeat(21), 'spez.bot', 'https://www.reddit.com/user/spez'])
    t.notOk(redditUser.pattern.test(bad), bad);
  for (const ok of ['announcements', 'AskScience', 'de_', 'x'.repeat(21)]) t.ok(redditSubreddit.pattern.test(ok), ok);
  for (const bad of ['r/announcements', 'ab', 'x'.repeat(22), 'ask-science', 'ask science'])
    t.notOk(redditSubreddit.pattern.test(bad), bad);
  for (const ok of ['fo7p5b', '2gmzqe', '1kh2top']) t.ok(redditPost.pattern.test(ok), ok);
  for (const bad of ['t3_fo7p5b', 'fo7p5b/title', '', 'x'.repeat(14)]) t.notOk(redditPost.pattern.test(bad), bad);
  t.equal(redditUser.normalize('Watchful1'), 'watchful1');
  t.equal(redditSubreddit.normalize('AskScience'), 'askscience');
  t.equal(redditPost.normalize('FO7P5B'), 'fo7p5b');
});

t.test('reddit collector - without credentials: the public JSON of the recorded bodies, with its User-Agent', async (t) => {
  const seen: string[] = [];
  const http = fixtureHttp([
    [/\/user\/watchful1\/about\.json$/, reply(200, fixture('reddit', 'user-about.json'))],
    [/\/r\/announcements\/about\.json$/, reply(200, fixture('reddit', 'subreddit-about.json'))],
    [/\/comments\/fo7p5b\.json\?limit=1&depth=1$/, reply(200, fixture('reddit', 'comments.json'))],
  ]);
  const collector = collectorWithFixtures(
    'reddit',
    {
      get: (url, headers, callSignal) => {
        seen.push(headers['user-agent']!);
        return http.get(url, headers, callSignal);
      },
    },
    anonymous,
  );
  const outcomes = await collector.collect([user('watchful1'), subreddit('announcements'), post('fo7p5b')], signal);
  t.same(outcomes, [userFound(156), subredditFound(47456009), postFound(66707, 40, 3982)]);
  t.same(http.calls, [
    'https://reddit.example/user/watchful1/about.json',
    'https://reddit.example/r/announcements/about.json',
    'https://reddit.example/comments/fo7p5b.json?limit=1&depth=1',
  ]);
  t.same(seen, [userAgent, userAgent, userAgent], 'a descriptive User-Agent, as Reddit requires');
});

t.test('reddit collector - what Reddit answers for missing, banned, private and suspended', async (t) => {
  const outcome = async (ref: ReturnType<typeof user>, response: ReturnType<typeof reply>) =>
    (await collectorWithFixtures('reddit', fixtureHttp([[/./, response]]), anonymous).collect([ref], signal))[0];
  t.same(await outcome(user('nobody_here'), reply(404, fixture('reddit', 'not-found.json'))), { kind: 'notFound' });
  t.same(await outcome(post('zzzzzz'), reply(404, fixture('reddit', 'not-found.json'))), { kind: 'notFound' });
  t.same(await outcome(subreddit('banned_sub'), reply(404, fixture('reddit', 'subreddit-banned.json'))), { kind: 'notFound' });
  t.same(
    await outcome(subreddit('never_was'), reply(302, '', { location: 'https://www.reddit.com/subreddits/search.json?q=never_was' })),
    { kind: 'notFound' },
    'a subreddit Reddit never had: the redirect to its search',
  );
  t.same(
    await outcome(subreddit('never_was'), reply(200, fixture('reddit', 'subreddit-none.json'))),
    { kind: 'notFound' },
    'or an empty listing',
  );
  t.same(await outcome(subreddit('private_sub'), reply(403, fixture('reddit', 'subreddit-private.json'))), {
    kind: 'failed',
    reason: 'reddit answered 403: private',
  });
  t.same(await outcome(user('suspended_account'), reply(200, fixture('reddit', 'user-suspended.json'))), {
    kind: 'failed',
    reason: 'reddit: the account is suspended',
  });
  t.same(await outcome(user('blocked'), reply(403, '<html>blocked</html>')), { kind: 'failed', reason: 'unexpected upstream status 403' });
  t.same(
    await outcome(subreddit('adult_sub'), reply(302, '', { location: 'https://www.reddit.com/over18?dest=x' })),
    { kind: 'failed', reason: 'unexpected upstream status 302' },
    'another redirect is no proof of absence',
  );
});

t.test('reddit collector - rate limits, counts left out, and bodies of another shape', async (t) => {
  const outcome = async (ref: ReturnType<typeof user>, response: ReturnType<typeof reply>) =>
    (await collectorWithFixtures('reddit', fixtureHttp([[/./, response]]), anonymous).collect([ref], signal))[0];
  // x-ratelimit-reset is seconds from now, as in the recorded headers (remaining 599.0, reset 586).
  t.same(await outcome(user('spez'), reply(429, '{"message": "Too Many Requests", "error": 429}', { 'x-ratelimit-reset': '586' })), {
    kind: 'rateLimited',
    retryAt: fixedNow + 586_000,
  });
  t.same(await outcome(user('spez'), reply(429, '{}', { 'retry-after': '30', 'x-ratelimit-reset': '586' })), {
    kind: 'rateLimited',
    retryAt: fixedNow + 30_000,
  });
  const withoutProfile = JSON.stringify({ kind: 't2', data: { name: 'old_account', subreddit: null } });
  t.same(await outcome(user('old_account'), reply(200, withoutProfile)), unparsable, 'no profile: no count at all is a failure');
  const negative = JSON.stringify([
    { kind: 'Listing', data: { children: [{ kind: 't3', data: { score: -3, num_comments: 12, num_crossposts: 0 } }] } },
    { kind: 'Listing', data: { children: [] } },
  ]);
  t.same(await outcome(post('abc123'), reply(200, negative)), postFound(null, 0, 12), 'a negative score counts no likes');
  t.same(
    await outcome(subreddit('announcements'), reply(200, fixture('reddit', 'user-about.json'))),
    unparsable,
    'a user where a subreddit was asked',
  );
  t.same(await outcome(post('fo7p5b'), reply(200, '[{"kind": "Listing", "data": {"children": []}}, {}]')), unparsable);
  t.same(await outcome(user('spez'), reply(200, '{"kind": "t2", "data": {')), unparsable);
});

/** A fixture upstream that answers the token endpoint with `tokens` in turn and API calls by `api`. */
function oauthUpstream(tokens: Array<ReturnType<typeof reply>>, api: (authorization: string) => ReturnType<typeof reply>) {
  const calls: string[] = [];
  const http: UpstreamHttp = {
    async get(url, headers) {
      calls.push(`GET ${url} ${headers.authorization}`);
      return api(headers.authorization!);
    },
    async post(url, headers, body) {
      calls.push(`POST ${url} ${headers.authorization} ${headers['content-type']} ${body}`);
      return tokens.shift()!;
    },
  };
  return { http, calls };
}

const token = (value: string, expiresIn = 3600) =>
  reply(200, fixture('reddit', 'access-token.json').replace('<ACCESS_TOKEN>', value).replace('3600', String(expiresIn)));

t.test('reddit collector - with credentials: one app-only token for every call, on oauth.reddit.com', async (t) => {
  const { http, calls } = oauthUpstream([token('first')], () => reply(200, fixture('reddit', 'user-about.json')));
  const credentials = { REDDIT_CLIENT_ID: 'the-id', REDDIT_CLIENT_SECRET: 'the-secret' };
  const collector = collectorWithFixtures('reddit', http, credentials);
  t.same(await collector.collect([user('watchful1'), user('spez')], signal), [userFound(156), userFound(156)]);
  const basic = `Basic ${Buffer.from('the-id:the-secret').toString('base64')}`;
  t.same(calls, [
    `POST https://reddit.example/api/v1/access_token ${basic} application/x-www-form-urlencoded grant_type=client_credentials`,
    'GET https://oauth.reddit.example/user/watchful1/about.json bearer first',
    'GET https://oauth.reddit.example/user/spez/about.json bearer first',
  ]);
});

t.test('reddit collector - a refused token is replaced once; refused credentials fail without a read', async (t) => {
  const credentials = { REDDIT_CLIENT_ID: 'the-id', REDDIT_CLIENT_SECRET: 'the-secret' };
  const revoked = oauthUpstream([token('old'), token('new')], (authorization) =>
    authorization === 'bearer new'
      ? reply(200, fixture('reddit', 'subreddit-about.json'))
      : reply(401, '{"message": "Unauthorized", "error": 401}'),
  );
  t.same(await collectorWithFixtures('reddit', revoked.http, credentials).collect([subreddit('announcements')], signal), [
    subredditFound(47456009),
  ]);
  t.same(
    revoked.calls.map((call) => call.split(' ').slice(0, 2).concat(call.split(' ').at(-1)!).join(' ')),
    [
      'POST https://reddit.example/api/v1/access_token grant_type=client_credentials',
      'GET https://oauth.reddit.example/r/announcements/about.json old',
      'POST https://reddit.example/api/v1/access_token grant_type=client_credentials',
      'GET https://oauth.reddit.example/r/announcements/about.json new',
    ],
  );

  const refused = oauthUpstream([reply(401, '{"message": "Unauthorized", "error": 401}')], () => reply(500, ''));
  t.same(await collectorWithFixtures('reddit', refused.http, credentials).collect([user('spez')], signal), [
    { kind: 'failed', reason: 'reddit refused the app credentials (status 401)' },
  ]);
  t.equal(refused.calls.length, 1, 'no read without a token');

  const throttled = oauthUpstream([reply(429, '{}', { 'retry-after': '5' })], () => reply(500, ''));
  t.same(await collectorWithFixtures('reddit', throttled.http, credentials).collect([user('spez')], signal), [
    { kind: 'rateLimited', retryAt: fixedNow + 5_000 },
  ]);
});

t.test('reddit budget - follows the mode the credentials choose', async (t) => {
  const http = fixtureHttp([]);
  const budgetWith = (env: Record<string, string>) => createCollectors(undefined, env, http, () => fixedNow, http).get('reddit')!.budget;
  t.same(budgetWith({}), { concurrency: 1, perMinute: 8 }, 'the anonymous limit: about 10 a minute');
  t.same(budgetWith({ REDDIT_CLIENT_ID: 'id' }), { concurrency: 1, perMinute: 8 }, 'one credential alone is not the app-only flow');
  t.same(budgetWith({ REDDIT_CLIENT_ID: 'id', REDDIT_CLIENT_SECRET: 'secret' }), { concurrency: 4, perMinute: 90 }, 'OAuth: 100 a minute');
  t.equal(createCollectors(undefined, {}, http, () => fixedNow, http).get('reddit')!.disabledReason, undefined, 'never disabled');
});

t.test('reddit against the emulator - the token endpoint, then users, subreddits and posts', async (t) => {
  const emulated = await emulatedCollectors();
  t.teardown(() => emulated.close());
  const found = await onFixedClock('reddit', () =>
    emulated.collectMany('reddit', [
      ['account', 'Spez'],
      ['community', 'Announcements'],
      ['post', 'FO7P5B'],
    ]),
  );
  const counts = {
    user: found.counts('account', 'spez'),
    sub: found.counts('community', 'announcements'),
    post: found.counts('post', 'fo7p5b'),
  };
  t.same(found.result, [
    userFound(counts.user.followers),
    subredditFound(counts.sub.followers),
    postFound(counts.post.likes, counts.post.reposts, counts.post.replies),
  ]);
  t.same(await emulated.collect('reddit', 'community', 'missing_sub'), { kind: 'notFound' }, 'the search redirect');
  const bad = await fetch(`${emulated.emulator.url}/reddit/api/v1/access_token`, {
    method: 'POST',
    headers: { authorization: 'Basic bm90OnRoaXM=' },
    body: 'grant_type=client_credentials',
  });
  t.equal(bad.status, 401, 'the emulated token endpoint checks the client credentials');
  const stranger = await fetch(`${emulated.emulator.url}/reddit/user/spez/about.json`, { headers: { authorization: 'bearer guessed' } });
  t.equal(stranger.status, 401, 'and the API the token');
  const noTokenEndpoint = await fetch(`${emulated.emulator.url}/github/api/v1/access_token`, { method: 'POST', body: 'x' });
  t.equal(noTokenEndpoint.status, 404, 'a platform without a token endpoint takes no POST');
});
