import t from 'tap';
import { isMediaId, threadsAccount, threadsPost } from './identifiers.js';
import type { ResourceRef } from '../../model.js';
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

const account = refsTo('threads', 'account');
const post = refsTo('threads', 'post');
const accountFound = (followers: number) =>
  foundOutcome({ followers: [followers, 'followers'], following: [null, 'following'], posts: [null, 'posts'] });
const postFound = (likes: number | null, reposts: number | null, replies: number | null = null) =>
  foundOutcome({ views: [null, 'views'], likes: [likes, 'likes'], reposts: [reposts, 'reposts'], replies: [replies, 'replies'] });

t.test('threads identifiers - usernames and <handle>:<media_id> posts', async (t) => {
  for (const ok of ['zuck', 'Mosseri', 'a.b_c', 'x'.repeat(30)]) t.ok(threadsAccount.pattern.test(ok), ok);
  for (const bad of ['.zuck', 'zuck.', 'z..uck', 'zu-ck', 'x'.repeat(31), '@zuck', 'zuck:1', 'https://www.threads.net/@zuck', ''])
    t.notOk(threadsAccount.pattern.test(bad), bad);
  for (const ok of ['zuck:18050206876707110', 'a.b:1', 'zuck:C8ZqKpYt7xY', 'zuck:DA-_x1']) t.ok(threadsPost.pattern.test(ok), ok);
  for (const bad of [
    'zuck',
    '18050206876707110',
    'zuck:',
    'z..uck:1',
    '.zuck:1',
    'zuck:1:2',
    'zuck/post/1',
    'zuck:C8Zq.Kp',
    'zuck:post/C8ZqKpYt7xY',
  ])
    t.notOk(threadsPost.pattern.test(bad), bad);
  t.equal(threadsPost.normalize('Zuck:C8ZqKpYt7xY'), 'zuck:C8ZqKpYt7xY', 'the code keeps its case');
  t.ok(isMediaId('zuck:18050206876707110'));
  t.notOk(isMediaId('zuck:C8ZqKpYt7xY'));
  t.equal(threadsAccount.normalize('Zuck'), 'zuck');
  t.equal(threadsPost.normalize('Zuck:18050206876707110'), 'zuck:18050206876707110');
  t.equal(threadsPost.namePart('zuck:18050206876707110'), 'zuck');
});

t.test('threads collector - profile lookup and post insights in the real shapes', async (t) => {
  const http = fixtureHttp([
    [/profile_lookup\?username=zuck&/, reply(200, fixture('threads', 'profile.json'))],
    [/\/18050206876707110\/insights\?/, reply(200, fixture('threads', 'insights.json'))],
  ]);
  const collector = collectorWithFixtures('threads', http);
  t.same(await collector.collect([account('zuck'), post('zuck:18050206876707110')], signal), [
    accountFound(5280417),
    postFound(18234, 912),
  ]);
  t.same(http.calls, [
    'https://threads.example/v1.0/profile_lookup?username=zuck&fields=follower_count&access_token=test-credential',
    'https://threads.example/v1.0/profile_lookup?username=zuck&fields=follower_count&access_token=test-credential',
    'https://threads.example/v1.0/18050206876707110/insights?metric=likes,reposts&access_token=test-credential',
  ]);
});

t.test('threads collector - a post by its code, of any public account, from its public page; no token used', async (t) => {
  const http = fixtureHttp([[/\/@zuck\/post\/C8ZqKpYt7xY$/, reply(200, fixture('threads', 'post-page.html'))]]);
  const outcomes = await collectorWithFixtures('threads', http).collect([post('zuck:C8ZqKpYt7xY')], signal);
  t.same(outcomes, [postFound(48211, 1733, 5120)]);
  t.same(http.calls, ['https://page.threads.example/@zuck/post/C8ZqKpYt7xY']);
});

t.test('threads collector - post pages: missing, throttled, walled, other author', async (t) => {
  const outcome = async (identifier: string, response: ReturnType<typeof reply>) =>
    (await collectorWithFixtures('threads', fixtureHttp([[/./, response]])).collect([post(identifier)], signal))[0];
  t.same(await outcome('zuck:C8ZqKpYt7xY', reply(404, "<html>Sorry, this page isn't available.</html>")), { kind: 'notFound' });
  t.same(await outcome('zuck:C8ZqKpYt7xY', reply(429, '', { 'retry-after': '30' })), { kind: 'rateLimited', retryAt: fixedNow + 30_000 });
  t.same(
    await outcome('zuck:C8ZqKpYt7xY', reply(200, '<html><title>Log in</title><form action="/login"></form></html>')),
    unparsable,
    'a login wall is a failure, never not_found',
  );
  t.same(await outcome('zuck:C8ZqKpYt7xY', reply(302, '', { location: '/login' })), {
    kind: 'failed',
    reason: 'unexpected upstream status 302',
  });
  t.same(
    await outcome('zuck:C8Zr00000AA', reply(200, fixture('threads', 'post-page.html'))),
    { kind: 'notFound' },
    'a code found under another author is not the post named',
  );
  t.same(await outcome('zuck:ZZZZZZZZZZZ', reply(200, fixture('threads', 'post-page.html'))), unparsable, 'a page without the post named');
});

t.test('threads collector - maps errors of both steps to distinct outcomes', async (t) => {
  const outcome = async (ref: ResourceRef, routes: Parameters<typeof fixtureHttp>[0]) =>
    (await collectorWithFixtures('threads', fixtureHttp(routes)).collect([ref], signal))[0];
  const profile: [RegExp, ReturnType<typeof reply>] = [/profile_lookup/, reply(200, fixture('threads', 'profile.json'))];
  const insights = (response: ReturnType<typeof reply>) => outcome(post('zuck:1'), [profile, [/insights/, response]]);
  const lookup = (response: ReturnType<typeof reply>) => outcome(account('zuck'), [[/./, response]]);

  t.same(await lookup(reply(400, fixture('threads', 'not-found.json'))), { kind: 'notFound' });
  t.same(await lookup(reply(400, fixture('threads', 'rate-limited.json'))), { kind: 'rateLimited', retryAt: fixedNow + 60_000 });
  t.same(await lookup(reply(500, 'oops')), { kind: 'failed', reason: 'unexpected upstream status 500' });
  t.same(await lookup(reply(200, '{"id":"25025320"}')), unparsable);
  t.same(await outcome(post('missing:1'), [[/profile_lookup/, reply(400, fixture('threads', 'not-found.json'))]]), { kind: 'notFound' });
  t.same(await insights(reply(400, fixture('threads', 'not-found.json'))), { kind: 'notFound' });
  t.same(await insights(reply(400, fixture('threads', 'rate-limited.json'), { 'retry-after': '90' })), {
    kind: 'rateLimited',
    retryAt: fixedNow + 90_000,
  });
  t.same(await insights(reply(403, fixture('threads', 'not-own-post.json'))), {
    kind: 'failed',
    reason: 'graph error 10: (#10) Application does not have permission for this action',
  });
  t.same(await insights(reply(200, '{"data":[]}')), unparsable);
  // A metric left out of the answer is null; the one present is kept (docs/platforms.md#missing-fields).
  t.same(await insights(reply(200, '{"data":[{"name":"likes","values":[{"value":3}]}]}')), postFound(3, null));
  t.same(await insights(reply(200, '{"data":')), unparsable);
});

t.test('threads against the emulator - found, missing, flaky, faults', async (t) => {
  const emulated = await emulatedCollectors();
  t.teardown(() => emulated.close());
  const zuckFound = async () => {
    const zuck = await onFixedClock('threads', () => emulated.collect('threads', 'account', 'Zuck'));
    t.same(zuck.result, accountFound(zuck.counts('account', 'zuck').followers));
  };
  const mediaFound = async () => {
    const media = await onFixedClock('threads', () => emulated.collect('threads', 'post', 'zuck:18050206876707110'));
    const counts = media.counts('post', 'me:18050206876707110');
    t.same(media.result, postFound(counts.likes, counts.reposts));
  };
  await zuckFound();
  await mediaFound();
  emulated.emulator.world.setFault('threads', 'zuck', 'ratelimit');
  t.match(await emulated.collect('threads', 'account', 'zuck'), { kind: 'rateLimited' });
  emulated.emulator.world.setFault('threads', 'zuck', 'none');
  // The media-id form: the author is looked up first, and media faults live under the token owner `me`.
  t.same(await emulated.collect('threads', 'post', 'missing_user:1'), { kind: 'notFound' });
  t.same(await emulated.collect('threads', 'post', 'flaky_user:1'), { kind: 'failed', reason: 'unexpected upstream status 503' });
  emulated.emulator.world.setFault('threads', 'me:18050206876707110', 'notfound');
  t.same(await emulated.collect('threads', 'post', 'zuck:18050206876707110'), { kind: 'notFound' });
  emulated.emulator.world.setFault('threads', 'me:18050206876707110', 'ratelimit');
  t.match(await emulated.collect('threads', 'post', 'zuck:18050206876707110'), { kind: 'rateLimited' });
  emulated.emulator.world.setFault('threads', 'me:18050206876707110', 'none');
  const page = await onFixedClock('threads', () => emulated.collect('threads', 'post', 'Zuck:C8ZqKpYt7xY'));
  const pageCounts = page.counts('post', 'zuck:C8ZqKpYt7xY');
  t.same(page.result, postFound(pageCounts.likes, pageCounts.reposts, pageCounts.replies));
  emulated.emulator.world.setFault('threads', 'zuck:C8ZqKpYt7xY', 'ratelimit');
  t.match(await emulated.collect('threads', 'post', 'zuck:C8ZqKpYt7xY'), { kind: 'rateLimited' });
  emulated.emulator.world.setFault('threads', 'zuck:C8ZqKpYt7xY', 'none');
  await zuckFound();
  await mediaFound();
});
