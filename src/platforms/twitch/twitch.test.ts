import t from 'tap';
import { twitchChannel, twitchVideo } from './identifiers.js';
import { createCollectors } from '../collectors.js';
import type { UpstreamHttp } from '../http.js';
import {
  collectorWithFixtures,
  emulatedCollectors,
  fixedNow,
  fixture,
  foundOutcome,
  onFixedClock,
  refsTo,
  reply,
  signal,
  unparsable,
} from '../../../test/helpers/platforms.js';

const channel = refsTo('twitch', 'account');
const video = refsTo('twitch', 'post');

const channelFound = (followers: number) =>
  foundOutcome({ followers: [followers, 'followers'], following: [null, 'following'], posts: [null, 'videos'] });
const videoFound = (views: number) =>
  foundOutcome({ views: [views, 'views'], likes: [null, 'likes'], reposts: [null, 'reposts'], replies: [null, 'replies'] });

/** A Helix fixture upstream: the token endpoint answers `token`, each GET the first route its URL matches. */
function helix(routes: Array<[RegExp, ReturnType<typeof reply>]>, token = reply(200, fixture('twitch', 'token.json'))) {
  const calls: string[] = [];
  const http: UpstreamHttp = {
    async get(url, headers) {
      calls.push(`GET ${url} ${headers['client-id']} ${headers.authorization}`);
      const route = routes.find(([pattern]) => pattern.test(url));
      if (!route) throw new Error(`no fixture route for ${url}`);
      return route[1];
    },
    async post(url, headers, body) {
      calls.push(`POST ${url} ${headers['content-type']} ${body}`);
      return token;
    },
  };
  return { http, calls };
}

const users = reply(200, fixture('twitch', 'users.json'));

t.test('twitch identifiers - logins and <login>:<video_id>', async (t) => {
  for (const ok of ['twitchdev', 'TwitchDev', 'a', 'x_1', 'x'.repeat(25)]) t.ok(twitchChannel.pattern.test(ok), ok);
  for (const bad of ['_x', 'x'.repeat(26), 'twitch.dev', 'https://www.twitch.tv/twitchdev', '@twitchdev'])
    t.notOk(twitchChannel.pattern.test(bad), bad);
  for (const ok of ['twitchdev:335921245', 'TwitchDev:1']) t.ok(twitchVideo.pattern.test(ok), ok);
  for (const bad of ['335921245', 'twitchdev:v335921245', 'twitchdev:', 'twitchdev/videos/335921245'])
    t.notOk(twitchVideo.pattern.test(bad), bad);
  t.equal(twitchVideo.normalize('TwitchDev:335921245'), 'twitchdev:335921245');
});

t.test("twitch collector - one app token, then Helix's documented example bodies", async (t) => {
  const { http, calls } = helix([
    [/\/users\?login=twitchdev$/, users],
    [/\/channels\/followers\?broadcaster_id=141981764&first=1$/, reply(200, fixture('twitch', 'channel-followers.json'))],
    [/\/videos\?id=335921245$/, reply(200, fixture('twitch', 'videos.json'))],
  ]);
  const collector = collectorWithFixtures('twitch', http, { TWITCH_CLIENT_ID: 'the-id', TWITCH_CLIENT_SECRET: 'the-secret' });
  t.same(await collector.collect([channel('twitchdev'), video('twitchdev:335921245')], signal), [channelFound(8), videoFound(1863062)]);
  const bearer = 'the-id Bearer jostpf5q0uzmxmkba9iyug38kjtgh';
  t.same(calls, [
    'POST https://id.twitch.example/oauth2/token application/x-www-form-urlencoded client_id=the-id&client_secret=the-secret&grant_type=client_credentials',
    `GET https://twitch.example/helix/users?login=twitchdev ${bearer}`,
    `GET https://twitch.example/helix/users?login=twitchdev ${bearer}`,
    `GET https://twitch.example/helix/channels/followers?broadcaster_id=141981764&first=1 ${bearer}`,
    `GET https://twitch.example/helix/videos?id=335921245 ${bearer}`,
  ]);
});

t.test('twitch collector - unknown logins and videos, videos of another channel, limits and bad bodies', async (t) => {
  const outcome = async (
    ref: ReturnType<typeof channel>,
    routes: Array<[RegExp, ReturnType<typeof reply>]>,
    token?: ReturnType<typeof reply>,
  ) => (await collectorWithFixtures('twitch', helix(routes, token).http).collect([ref], signal))[0];
  t.same(await outcome(channel('nobody_here'), [[/users/, reply(200, fixture('twitch', 'users-none.json'))]]), { kind: 'notFound' });
  t.same(await outcome(video('nobody_here:335921245'), [[/users/, reply(200, fixture('twitch', 'users-none.json'))]]), {
    kind: 'notFound',
  });
  t.same(
    await outcome(video('twitchdev:1'), [
      [/users/, users],
      [/videos/, reply(404, fixture('twitch', 'videos-not-found.json'))],
    ]),
    { kind: 'notFound' },
  );
  const elsewhere = fixture('twitch', 'videos.json').replace('"user_id": "141981764"', '"user_id": "12826"');
  t.same(
    await outcome(video('twitchdev:335921245'), [
      [/users/, users],
      [/videos/, reply(200, elsewhere)],
    ]),
    { kind: 'notFound' },
    "another channel's video",
  );
  t.same(await outcome(channel('twitchdev'), [[/users/, reply(429, '{}', { 'ratelimit-reset': String(fixedNow / 1000 + 42) })]]), {
    kind: 'rateLimited',
    retryAt: fixedNow + 42_000,
  });
  t.same(
    await outcome(channel('twitchdev'), [], reply(403, '{"status": 403, "message": "invalid client secret"}')),
    { kind: 'failed', reason: 'twitch refused the app credentials (status 403)' },
    'refused credentials fail without a read',
  );
  t.same(await outcome(channel('twitchdev'), [[/users/, reply(200, '{"data":[{"id":')]]), unparsable);
  t.same(
    await outcome(channel('twitchdev'), [
      [/users/, users],
      [/followers/, reply(200, '{"data": []}')],
    ]),
    unparsable,
    'no total',
  );
});

t.test('twitch collector - a token Helix refuses is replaced once', async (t) => {
  let issued = 0;
  const calls: string[] = [];
  const http: UpstreamHttp = {
    async get(url, headers) {
      calls.push(headers.authorization!);
      if (headers.authorization !== 'Bearer second') return reply(401, fixture('twitch', 'unauthorized.json'));
      return url.includes('/users') ? users : reply(200, fixture('twitch', 'channel-followers.json'));
    },
    async post() {
      issued += 1;
      return reply(200, JSON.stringify({ access_token: issued === 1 ? 'first' : 'second', expires_in: 5011271, token_type: 'bearer' }));
    },
  };
  t.same(await collectorWithFixtures('twitch', http).collect([channel('twitchdev')], signal), [channelFound(8)]);
  t.same(calls, ['Bearer first', 'Bearer second', 'Bearer second']);
  t.equal(issued, 2);
});

t.test('twitch without credentials - disabled with the reason, no upstream call', async (t) => {
  const http = helix([]);
  const twitch = createCollectors(undefined, { TWITCH_CLIENT_ID: 'only-the-id' }, http.http, () => fixedNow, http.http).get('twitch')!;
  t.equal(twitch.disabledReason, 'twitch needs TWITCH_CLIENT_SECRET in the environment');
  t.same(await twitch.collector.collect([channel('twitchdev')], signal), [
    { kind: 'failed', reason: 'twitch needs TWITCH_CLIENT_SECRET in the environment' },
  ]);
  t.same(http.calls, []);
});

t.test('twitch against the emulator - token, channels and videos; a video of another channel', async (t) => {
  const emulated = await emulatedCollectors();
  t.teardown(() => emulated.close());
  const found = await onFixedClock('twitch', () =>
    emulated.collectMany('twitch', [
      ['account', 'TwitchDev'],
      ['post', 'twitchdev:335921245'],
    ]),
  );
  t.same(found.result, [
    channelFound(found.counts('account', 'twitchdev').followers),
    videoFound(found.counts('post', 'twitchdev:335921245').views),
  ]);
  t.same(await emulated.collect('twitch', 'post', 'someone_else:335921245'), { kind: 'notFound' });
  const token = await fetch(`${emulated.emulator.url}/twitch/oauth2/token`, {
    method: 'POST',
    body: 'client_id=emulator&client_secret=guess&grant_type=client_credentials',
  });
  t.equal(token.status, 403, 'the emulated token endpoint checks the secret');
});
