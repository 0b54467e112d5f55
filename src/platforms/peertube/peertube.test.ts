import t from 'tap';
import type { ResourceRef } from '../../model.js';
import { peertubeAccount, peertubeVideo } from './identifiers.js';
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

const account = refsTo('peertube', 'account');
const video = refsTo('peertube', 'post');
const accepted = (rule: typeof peertubeAccount, identifier: string) =>
  rule.pattern.test(identifier) && identifier.length <= rule.maxLength && (rule.refines?.accepts(identifier) ?? true);

t.test('peertube identifiers - name@host accounts and channels; host:<id> videos by number, UUID or short UUID', async (t) => {
  for (const ok of ['framasoft@framatube.org', 'framasoft_channel@framatube.org']) t.ok(accepted(peertubeAccount, ok), ok);
  for (const ok of ['framatube.org:1047', 'framatube.org:9c9de5e8-0a1e-484a-b099-e80766180a6d', 'Framatube.org:kkGMgK9ZtnKfYAgnEtQxbv'])
    t.ok(accepted(peertubeVideo, ok), ok);
  for (const bad of [
    'framatube.org:9C9DE5E8-0A1E-484A-B099-E80766180A6D',
    'framatube.org:kkGMgK9ZtnKfYAgnEtQxb0',
    'framatube.org:kkGMgK9ZtnKfYAgnEtQxbvx',
    'framatube.org',
    'framatube.org:12345678901',
    '10.0.0.1:1047',
  ])
    t.notOk(accepted(peertubeVideo, bad), bad);
  t.equal(peertubeVideo.normalize('Framatube.org:kkGMgK9ZtnKfYAgnEtQxbv'), 'framatube.org:kkGMgK9ZtnKfYAgnEtQxbv', 'the id as sent');
});

const accountFound = (followers: number, following: number) =>
  foundOutcome({ followers: [followers, 'subscribers'], following: [following, 'subscriptions'], posts: [null, 'videos'] });

t.test('peertube collector - an account, a channel (no account of that name) and a video on their server', async (t) => {
  const notFound = reply(404, fixture('peertube', 'not-found.json'));
  const http = fixtureHttp([
    [/^https:\/\/framatube\.org\/api\/v1\/accounts\/framasoft$/, reply(200, fixture('peertube', 'account.json'))],
    [/\/api\/v1\/accounts\/framasoft_channel$/, notFound],
    [/^https:\/\/framatube\.org\/api\/v1\/video-channels\/framasoft_channel$/, reply(200, fixture('peertube', 'video-channel.json'))],
    [/^https:\/\/framatube\.org\/api\/v1\/videos\/kkGMgK9ZtnKfYAgnEtQxbv$/, reply(200, fixture('peertube', 'video.json'))],
  ]);
  const outcomes = await collectorWithFixtures('peertube', http).collect(
    [account('framasoft@framatube.org'), account('framasoft_channel@framatube.org'), video('framatube.org:kkGMgK9ZtnKfYAgnEtQxbv')],
    signal,
  );
  t.same(outcomes, [
    accountFound(3456, 2),
    accountFound(5198, 0),
    foundOutcome({ views: [185314, 'views'], likes: [1312, 'likes'], reposts: [null, 'reposts'], replies: [64, 'comments'] }),
  ]);
});

t.test('peertube collector - not found as neither account nor channel, rate limits, failures', async (t) => {
  const outcome = async (ref: ResourceRef, routes: Parameters<typeof fixtureHttp>[0]) =>
    (await collectorWithFixtures('peertube', fixtureHttp(routes)).collect([ref], signal))[0];
  const notFound = reply(404, fixture('peertube', 'not-found.json'));
  t.same(await outcome(account('nobody@framatube.org'), [[/./, notFound]]), { kind: 'notFound' });
  t.same(await outcome(video('framatube.org:1047'), [[/./, notFound]]), { kind: 'notFound' });
  t.same(await outcome(account('framasoft@framatube.org'), [[/./, reply(429, '{}', { 'retry-after': '10' })]]), {
    kind: 'rateLimited',
    retryAt: fixedNow + 10_000,
  });
  t.same(
    await outcome(account('framasoft@framatube.org'), [
      [/accounts/, notFound],
      [/video-channels/, reply(503, 'Service Unavailable')],
    ]),
    { kind: 'failed', reason: 'unexpected upstream status 503' },
  );
  t.same(await outcome(video('framatube.org:1047'), [[/./, reply(200, '{"views":-1}')]]), unparsable);
  t.same(
    await outcome(video('framatube.org:1047'), [[/./, reply(200, '{"views":10,"likes":2}')]]),
    foundOutcome({ views: [10, 'views'], likes: [2, 'likes'], reposts: [null, 'reposts'], replies: [null, 'comments'] }),
    'an older server without the comments count',
  );
});

t.test('peertube against the emulator - a channel name is no account: the collector finds it as a channel', async (t) => {
  const emulated = await emulatedCollectors();
  t.teardown(() => emulated.close());
  const channel = await onFixedClock('peertube', () => emulated.collect('peertube', 'account', 'channel_news@tube.example.org'));
  const counts = channel.counts('account', 'channel_news@tube.example.org');
  t.same(channel.result, accountFound(counts.followers, counts.following));
  t.same(await emulated.collect('peertube', 'account', 'missing_news@tube.example.org'), { kind: 'notFound' });
});
