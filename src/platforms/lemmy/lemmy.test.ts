import t from 'tap';
import type { ResourceRef } from '../../model.js';
import { lemmyAccount, lemmyCommunity, lemmyPost } from './identifiers.js';
import {
  collectorWithFixtures,
  fixedNow,
  fixture,
  fixtureHttp,
  foundOutcome,
  refsTo,
  reply,
  signal,
  unparsable,
} from '../../../test/helpers/platforms.js';

const account = refsTo('lemmy', 'account');
const community = refsTo('lemmy', 'community');
const post = refsTo('lemmy', 'post');
const accepted = (rule: typeof lemmyAccount, identifier: string) =>
  rule.pattern.test(identifier) && identifier.length <= rule.maxLength && (rule.refines?.accepts(identifier) ?? true);

t.test('lemmy identifiers - name@host users and communities, host:<id> posts', async (t) => {
  for (const ok of ['dessalines@lemmy.ml', 'Technology@Lemmy.World', 'a_b@feddit.de']) {
    t.ok(accepted(lemmyAccount, ok), ok);
    t.ok(accepted(lemmyCommunity, ok), ok);
  }
  for (const bad of [
    '!technology@lemmy.world',
    'c/technology',
    'u/dessalines',
    '@dessalines@lemmy.ml',
    'technology',
    'technology@lemmy.local',
  ])
    t.notOk(accepted(lemmyCommunity, bad), bad);
  for (const ok of ['lemmy.ml:1', 'Lemmy.World:12345678']) t.ok(accepted(lemmyPost, ok), ok);
  for (const bad of ['lemmy.ml', 'lemmy.ml:abc', 'lemmy.ml:443:1', 'user@lemmy.ml:1', '127.0.0.1:1', 'localhost:1'])
    t.notOk(accepted(lemmyPost, bad), bad);
  t.equal(lemmyCommunity.normalize('Technology@Lemmy.World'), 'technology@lemmy.world');
  t.equal(lemmyPost.normalize('Lemmy.World:12345678'), 'lemmy.world:12345678');
  t.equal(lemmyPost.namePart('lemmy.world:12345678'), 'lemmy.world');
});

const postFound = foundOutcome({ views: [null, 'views'], likes: [421, 'upvotes'], reposts: [null, 'reposts'], replies: [87, 'comments'] });
const communityFound = foundOutcome({ followers: [75311, 'subscribers'], posts: [41920, 'posts'] });
const userFound = foundOutcome({ followers: [null, 'followers'], following: [null, 'following'], posts: [2918, 'posts'] });

t.test('lemmy collector - reads the 0.19 (v3) shapes on the home server', async (t) => {
  const http = fixtureHttp([
    [/^https:\/\/lemmy\.ml\/api\/v3\/user\?username=dessalines$/, reply(200, fixture('lemmy', 'user-v3.json'))],
    [/^https:\/\/lemmy\.world\/api\/v3\/community\?name=technology$/, reply(200, fixture('lemmy', 'community-v3.json'))],
    [/^https:\/\/lemmy\.ml\/api\/v3\/post\?id=12345678$/, reply(200, fixture('lemmy', 'post-v3.json'))],
  ]);
  const outcomes = await collectorWithFixtures('lemmy', http).collect(
    [account('dessalines@lemmy.ml'), community('technology@lemmy.world'), post('lemmy.ml:12345678')],
    signal,
  );
  t.same(outcomes, [userFound, communityFound, postFound]);
});

t.test('lemmy collector - a server without v3 (a 404 that is not Lemmy error) is asked under v4, whose shapes it reads', async (t) => {
  const noRoute = reply(404, '<html>Not Found</html>');
  const http = fixtureHttp([
    [/\/api\/v3\//, noRoute],
    [/\/api\/v4\/person\?username=dessalines$/, reply(200, fixture('lemmy', 'person-v4.json'))],
    [/\/api\/v4\/community\?name=technology$/, reply(200, fixture('lemmy', 'community-v4.json'))],
    [/\/api\/v4\/post\?id=12345678$/, reply(200, fixture('lemmy', 'post-v4.json'))],
  ]);
  const outcomes = await collectorWithFixtures('lemmy', http).collect(
    [account('dessalines@lemmy.ml'), community('technology@lemmy.world'), post('lemmy.ml:12345678')],
    signal,
  );
  t.same(outcomes, [userFound, communityFound, postFound]);
  t.equal(http.calls.length, 6, 'one v3 and one v4 call each');
});

t.test('lemmy collector - not found in either version, rate limits, other failures', async (t) => {
  const outcome = async (ref: ResourceRef, routes: Parameters<typeof fixtureHttp>[0]) =>
    (await collectorWithFixtures('lemmy', fixtureHttp(routes)).collect([ref], signal))[0];
  const technology = community('technology@lemmy.world');
  t.same(await outcome(technology, [[/./, reply(400, fixture('lemmy', 'not-found-v3.json'))]]), { kind: 'notFound' });
  t.same(
    await outcome(technology, [
      [/v3/, reply(404, 'Not Found')],
      [/v4/, reply(404, fixture('lemmy', 'not-found-v4.json'))],
    ]),
    { kind: 'notFound' },
  );
  t.same(await outcome(technology, [[/./, reply(404, '')]]), {
    kind: 'failed',
    reason: "lemmy.world answers neither Lemmy's v3 nor its v4 API",
  });
  t.same(await outcome(technology, [[/./, reply(429, fixture('lemmy', 'rate-limited.json'), { 'retry-after': '20' })]]), {
    kind: 'rateLimited',
    retryAt: fixedNow + 20_000,
  });
  t.same(await outcome(technology, [[/./, reply(400, fixture('lemmy', 'rate-limited.json'))]]).then((o) => o?.kind), 'rateLimited');
  t.same(await outcome(technology, [[/./, reply(400, '{"error":"couldnt_find_person_mention"}')]]), {
    kind: 'failed',
    reason: 'unexpected upstream status 400',
  });
  t.same(await outcome(technology, [[/./, reply(200, '{"community_view":{}}')]]), unparsable);
  t.same(await outcome(post('lemmy.ml:1'), [[/./, reply(502, 'Bad Gateway')]]), {
    kind: 'failed',
    reason: 'unexpected upstream status 502',
  });
});
