import t from 'tap';
import type { EmulatedCounts } from '../emulatorContract.js';
import { createUpstreamHttp } from '../http.js';
import { youtubeChannel, youtubeVideo } from './identifiers.js';
import { nextPacificMidnight } from './quota.js';
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

const channel = refsTo('youtube', 'account');
const video = refsTo('youtube', 'post');

const channelFound = (subscribers: number | null, videos: number) =>
  foundOutcome({ followers: [subscribers, 'subscribers'], following: [null, 'following'], posts: [videos, 'videos'] });
const videoFound = (views: number, likes: number | null, comments: number | null) =>
  foundOutcome({ views: [views, 'views'], likes: [likes, 'likes'], reposts: [null, 'reposts'], replies: [comments, 'comments'] });

t.test('youtube identifiers - channel ids, handles and video ids per YouTube syntax', async (t) => {
  for (const ok of [
    'UC_x5XG1OV2P6uZZ5FSM9Ttw',
    '@GoogleDevelopers',
    'GoogleDevelopers',
    '@abc',
    'a.b-c_d',
    `@${'x'.repeat(30)}`,
    '@café',
    '@ユーチューブ',
  ])
    t.ok(youtubeChannel.pattern.test(ok), ok);
  for (const bad of ['@ab', 'ab', `@${'x'.repeat(31)}`, '@google developers', 'https://youtube.com/@google', '@goo/gle', '@@google', ''])
    t.notOk(youtubeChannel.pattern.test(bad), bad);
  for (const ok of ['dQw4w9WgXcQ', 'jNQXAC9IVRw', 'a-b_c-d_e-f']) t.ok(youtubeVideo.pattern.test(ok), ok);
  for (const bad of ['dQw4w9WgXc', 'dQw4w9WgXcQQ', 'dQw4w9WgXc!', 'watch?v=dQw4w9WgXcQ']) t.notOk(youtubeVideo.pattern.test(bad), bad);
  t.equal(youtubeChannel.normalize('UC_x5XG1OV2P6uZZ5FSM9Ttw'), 'UC_x5XG1OV2P6uZZ5FSM9Ttw', 'channel ids keep their case');
  t.equal(youtubeChannel.normalize('@GoogleDevelopers'), '@googledevelopers');
  t.equal(youtubeChannel.normalize('GoogleDevelopers'), '@googledevelopers', 'with or without @ is one resource');
  t.equal(youtubeChannel.normalize('@UC_x5XG1OV2P6uZZ5FSM9Ttw'), '@uc_x5xg1ov2p6uzz5fsm9ttw', 'an @ makes it a handle');
  t.equal(youtubeChannel.namePart('@missing-channel'), 'missing-channel');
  t.equal(youtubeVideo.normalize('dQw4w9WgXcQ'), 'dQw4w9WgXcQ', 'video ids keep their case');
  t.equal(youtubeVideo.namePart('dQw4w9WgXcQ'), 'dQw4w9WgXcQ');
});

t.test('youtube collector - one call per kind of id, one per handle, exact datapoints', async (t) => {
  const http = fixtureHttp([
    [/channels\?part=statistics&id=/, reply(200, fixture('youtube', 'channels.json'))],
    [/channels\?part=statistics&forHandle=%40googledevelopers$/, reply(200, fixture('youtube', 'channel-by-handle.json'))],
    [/channels\?part=statistics&forHandle=%40nobody$/, reply(200, fixture('youtube', 'channels-none.json'))],
    [/videos\?part=statistics&id=/, reply(200, fixture('youtube', 'videos.json'))],
  ]);
  const outcomes = await collectorWithFixtures('youtube', http).collect(
    [
      channel('UC_x5XG1OV2P6uZZ5FSM9Ttw'),
      video('dQw4w9WgXcQ'),
      channel('UCVHFbqXqoYvEWM1Ddxl0QDg'),
      channel('@googledevelopers'),
      video('jNQXAC9IVRw'),
      channel('UCxxxxxxxxxxxxxxxxxxxxxx'),
      video('xxxxxxxxxxx'),
      channel('@nobody'),
    ],
    signal,
  );
  t.same([...http.calls].sort(), [
    'https://youtube.example/channels?part=statistics&forHandle=%40googledevelopers',
    'https://youtube.example/channels?part=statistics&forHandle=%40nobody',
    'https://youtube.example/channels?part=statistics&id=UC_x5XG1OV2P6uZZ5FSM9Ttw%2CUCVHFbqXqoYvEWM1Ddxl0QDg%2CUCxxxxxxxxxxxxxxxxxxxxxx',
    'https://youtube.example/videos?part=statistics&id=dQw4w9WgXcQ%2CjNQXAC9IVRw%2Cxxxxxxxxxxx',
  ]);
  t.same(outcomes, [
    channelFound(2560000, 6915),
    videoFound(1712389057, 18554128, 2412776),
    channelFound(null, 512),
    channelFound(2560000, 6915),
    videoFound(371095462, null, 12841604),
    { kind: 'notFound' },
    { kind: 'notFound' },
    { kind: 'notFound' },
  ]);
});

t.test('youtube collector - sends the API key in a header', async (t) => {
  const seen: Array<Record<string, string>> = [];
  await collectorWithFixtures('youtube', {
    async get(_url, headers) {
      seen.push(headers);
      return reply(200, fixture('youtube', 'videos-none.json'));
    },
  }).collect([video('dQw4w9WgXcQ')], signal);
  t.equal(seen[0]!['x-goog-api-key'], 'test-credential');
});

t.test('youtube collector - quota, rate limits, other errors and bad bodies are distinct outcomes', async (t) => {
  const outcome = async (response: ReturnType<typeof reply>, ref = channel('UC_x5XG1OV2P6uZZ5FSM9Ttw')) =>
    (await collectorWithFixtures('youtube', fixtureHttp([[/./, response]])).collect([ref], signal))[0];
  // fixedNow is 2026-11-23 12:00 UTC = 04:00 PST; the quota resets at 08:00 UTC.
  t.equal(nextPacificMidnight(fixedNow), Date.UTC(2026, 10, 24, 8));
  t.same(await outcome(reply(403, fixture('youtube', 'quota-exceeded.json'))), { kind: 'rateLimited', retryAt: Date.UTC(2026, 10, 24, 8) });
  t.same(await outcome(reply(403, fixture('youtube', 'quota-exceeded.json')), video('dQw4w9WgXcQ')), {
    kind: 'rateLimited',
    retryAt: Date.UTC(2026, 10, 24, 8),
  });
  t.same(
    await outcome(reply(403, '{"error":{"code":403,"message":"Rate","errors":[{"reason":"rateLimitExceeded","domain":"usageLimits"}]}}')),
    { kind: 'rateLimited', retryAt: fixedNow + 60_000 },
  );
  t.same(await outcome(reply(429, '{}', { 'retry-after': '30' })), { kind: 'rateLimited', retryAt: fixedNow + 30_000 });
  t.same(await outcome(reply(403, fixture('youtube', 'forbidden.json'))), {
    kind: 'failed',
    reason: 'unexpected upstream status 403 (forbidden)',
  });
  t.same(await outcome(reply(400, fixture('youtube', 'key-invalid.json'))), {
    kind: 'failed',
    reason: 'unexpected upstream status 400 (badRequest)',
  });
  t.same(await outcome(reply(503, 'Service Unavailable')), { kind: 'failed', reason: 'unexpected upstream status 503' });
  t.same(await outcome(reply(404, '{"error":{"code":404,"message":"x","errors":[{"reason":"channelNotFound"}]}}')), { kind: 'notFound' });
  t.same(
    await outcome(
      reply(
        200,
        '{"items":[{"id":"UC_x5XG1OV2P6uZZ5FSM9Ttw","statistics":{"subscriberCount":12,"hiddenSubscriberCount":false,"videoCount":"1"}}]}',
      ),
    ),
    unparsable,
  );
  t.same(await outcome(reply(200, '{"kind":"youtube#channelListResponse","etag":"e"}')), unparsable, 'neither items nor pageInfo');
  t.same(
    await outcome(reply(200, '{"pageInfo":{"totalResults":1},"kind":"youtube#channelListResponse"}')),
    unparsable,
    'counts one, holds none',
  );
  t.same(await outcome(reply(200, '<html>'), video('dQw4w9WgXcQ')), unparsable);
});

t.test('youtube collector - an id in a list without pageInfo is found; one left out is unknown, not missing', async (t) => {
  // docs/platforms.md#youtube-lists: the shape of Google's getting-started example, which carries no pageInfo.
  const http = fixtureHttp([[/videos\?part=statistics&id=/, reply(200, fixture('youtube', 'videos-without-page-info.json'))]]);
  const outcomes = await collectorWithFixtures('youtube', http).collect([video('7lCDEYXw3mM'), video('xxxxxxxxxxx')], signal);
  t.same(outcomes, [
    videoFound(3057, 25, 12),
    { kind: 'failed', reason: 'upstream list does not count its results, so an id it leaves out is not known to be missing' },
  ]);
  const channels = fixtureHttp([
    [/channels\?part=statistics&id=/, reply(200, '{"kind":"youtube#channelListResponse","etag":"e","items":[]}')],
  ]);
  t.same(
    await collectorWithFixtures('youtube', channels).collect([channel('UC_x5XG1OV2P6uZZ5FSM9Ttw')], signal),
    [{ kind: 'failed', reason: 'upstream list does not count its results, so an id it leaves out is not known to be missing' }],
    'an empty list that counts nothing is no proof either',
  );
  const counted = fixtureHttp([[/videos\?part=statistics&id=/, reply(200, fixture('youtube', 'videos-none.json'))]]);
  t.same(
    await collectorWithFixtures('youtube', counted).collect([video('xxxxxxxxxxx')], signal),
    [{ kind: 'notFound' }],
    'a list that counts 0 results',
  );
});

const emulatedChannel = (counts: EmulatedCounts) => channelFound(counts.followers, counts.posts);
const emulatedVideo = (counts: EmulatedCounts) => videoFound(counts.views, counts.likes, counts.replies);

t.test('youtube against the emulator - found, missing, flaky, rounded, faults', async (t) => {
  const emulated = await emulatedCollectors();
  t.teardown(() => emulated.close());
  const byId = await onFixedClock('youtube', () => emulated.collect('youtube', 'account', 'UC_x5XG1OV2P6uZZ5FSM9Ttw'));
  t.same(byId.result, emulatedChannel(byId.counts('account', 'UC_x5XG1OV2P6uZZ5FSM9Ttw')));
  const byHandle = await onFixedClock('youtube', () => emulated.collect('youtube', 'account', '@GoogleDevelopers'));
  t.same(byHandle.result, emulatedChannel(byHandle.counts('account', '@googledevelopers')));
  const clip = await onFixedClock('youtube', () => emulated.collect('youtube', 'post', 'dQw4w9WgXcQ'));
  t.same(clip.result, emulatedVideo(clip.counts('post', 'dQw4w9WgXcQ')));
  const rounded = await onFixedClock('youtube', () => emulated.collect('youtube', 'account', '@rounded-channel'));
  const { followers, posts } = rounded.counts('account', '@rounded-channel');
  const scale = 10 ** Math.max(0, String(followers).length - 3);
  t.same(rounded.result, channelFound(Math.floor(followers / scale) * scale, posts));

  t.same(await emulated.collect('youtube', 'account', '@missing-channel'), { kind: 'notFound' });
  t.same(await emulated.collect('youtube', 'account', '@flaky-channel'), { kind: 'failed', reason: 'unexpected upstream status 503' });

  emulated.emulator.world.setFault('youtube', 'dQw4w9WgXcQ', 'ratelimit');
  const limited = await emulated.collect('youtube', 'post', 'dQw4w9WgXcQ');
  t.same(limited, { kind: 'rateLimited', retryAt: nextPacificMidnight(fixedNow) });
  emulated.emulator.world.setFault('youtube', 'dQw4w9WgXcQ', 'none');
  emulated.emulator.world.setFault('youtube', '@GoogleDevelopers', 'none');
  const again = await onFixedClock('youtube', () => emulated.collect('youtube', 'post', 'dQw4w9WgXcQ'));
  t.same(again.result, emulatedVideo(again.counts('post', 'dQw4w9WgXcQ')));
});

t.test('youtube against the emulator - 50 videos and channel ids in two upstream calls', async (t) => {
  const emulated = await emulatedCollectors();
  t.teardown(() => emulated.close());
  const realHttp = createUpstreamHttp();
  // Its keep-alive connections would hold the test's process open for seconds after the last test.
  t.teardown(() => realHttp.close());
  const calls: string[] = [];
  const collector = collectorWithFixtures('youtube', {
    get: (url, headers, callSignal) => {
      calls.push(url);
      return realHttp.get(url.replace('https://youtube.example', `${emulated.emulator.url}/youtube`), headers, callSignal);
    },
  });
  const refs = Array.from({ length: 50 }, (_, index) =>
    index % 2 === 0 ? video(`video${String(index).padStart(6, '0')}`) : channel(`UC${String(index).padStart(22, '0')}`),
  );
  refs[10] = video('missing0001');
  const { result, counts } = await onFixedClock('youtube', () => collector.collect(refs, signal));
  t.equal(calls.length, 2);
  t.same(
    result,
    refs.map((ref) =>
      ref.identifier === 'missing0001'
        ? { kind: 'notFound' }
        : ref.type === 'post'
          ? emulatedVideo(counts('post', ref.identifier))
          : emulatedChannel(counts('account', ref.identifier)),
    ),
  );
});

t.test('youtube emulator - refuses requests without an API key, as YouTube does', async (t) => {
  const emulated = await emulatedCollectors();
  t.teardown(() => emulated.close());
  const http = createUpstreamHttp();
  t.teardown(() => http.close());
  const response = await http.get(`${emulated.emulator.url}/youtube/videos?part=statistics&id=dQw4w9WgXcQ`, {}, signal);
  t.equal(response.status, 403);
  t.match(JSON.parse(response.body), { error: { code: 403, errors: [{ reason: 'forbidden' }], status: 'PERMISSION_DENIED' } });
});
