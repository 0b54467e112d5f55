import t from 'tap';
import { tiktokAccount } from './identifiers.js';
import { emulatedCounts } from '../../emulator/counts.js';
import {
  collectorWithFixtures,
  emulatedCollectors,
  fixedNow,
  fixture,
  fixtureHttp,
  foundOutcome,
  reply,
  signal,
  unparsable,
  refsTo,
} from '../../../test/helpers/platforms.js';

const account = refsTo('tiktok', 'account');
const accountFound = (followers: number, following: number, videos: number) =>
  foundOutcome({ followers: [followers, 'followers'], following: [following, 'following'], posts: [videos, 'videos'] });
const page = (name: string) => reply(200, fixture('tiktok', name), { 'content-type': 'text/html; charset=utf-8' });

t.test('tiktok identifiers - usernames per TikTok syntax', async (t) => {
  for (const ok of ['scout2015', 'Charli.DAmelio', 'a_', '._x', 'x'.repeat(24)]) t.ok(tiktokAccount.pattern.test(ok), ok);
  for (const bad of ['a', 'scout.', 'scout-2015', 'x'.repeat(25), '@scout2015', 'scout 2015', 'https://www.tiktok.com/@scout2015', ''])
    t.notOk(tiktokAccount.pattern.test(bad), bad);
  t.equal(tiktokAccount.normalize('Charli.DAmelio'), 'charli.damelio');
  t.equal(tiktokAccount.namePart('scout2015'), 'scout2015');
});

t.test('tiktok collector - reads the exact stats from the rehydration JSON, not the rounded header', async (t) => {
  const http = fixtureHttp([[/\/@scout2015$/, page('profile.html')]]);
  const [outcome] = await collectorWithFixtures('tiktok', http).collect([account('scout2015')], signal);
  t.same(outcome, accountFound(1987423, 1, 212));
  t.same(http.calls, ['https://tiktok.example/@scout2015']);
});

t.test('tiktok collector - missing users, throttling, walls and broken pages', async (t) => {
  const outcome = async (response: ReturnType<typeof reply>) =>
    (await collectorWithFixtures('tiktok', fixtureHttp([[/./, response]])).collect([account('scout2015')], signal))[0];
  const withStatus = (statusCode: number) =>
    reply(
      200,
      `<script id="__UNIVERSAL_DATA_FOR_REHYDRATION__" type="application/json">{"__DEFAULT_SCOPE__":{"webapp.user-detail":{"userInfo":{},"statusCode":${statusCode}}}}</script>`,
    );
  t.same(await outcome(page('not-found.html')), { kind: 'notFound' });
  t.same(await outcome(withStatus(10202)), { kind: 'notFound' });
  t.same(await outcome(withStatus(10000)), { kind: 'failed', reason: 'tiktok user-detail statusCode 10000' });
  t.same(await outcome(withStatus(0)), unparsable, 'statusCode 0 without stats');
  t.same(await outcome(page('verify-wall.html')), unparsable);
  t.same(await outcome(reply(429, 'Too Many Requests', { 'retry-after': '120' })), { kind: 'rateLimited', retryAt: fixedNow + 120_000 });
  t.same(await outcome(reply(429, 'Too Many Requests')), { kind: 'rateLimited', retryAt: fixedNow + 60_000 });
  t.same(await outcome(reply(404, 'Not Found')), { kind: 'failed', reason: 'unexpected upstream status 404' });
  t.same(await outcome(reply(302, '')), { kind: 'failed', reason: 'unexpected upstream status 302' });
  t.same(
    await outcome(reply(200, '<script id="__UNIVERSAL_DATA_FOR_REHYDRATION__" type="application/json">{"__DEFAULT_SCOPE__":</script>')),
    unparsable,
  );
});

t.test('tiktok against the emulator - found, rounded, missing, flaky, faults', async (t) => {
  const emulated = await emulatedCollectors();
  t.teardown(() => emulated.close());
  const now = fixedNow;
  const scoutCounts = emulatedCounts('tiktok', 'account', 'scout2015', now);
  const scout = await emulated.collect('tiktok', 'account', 'Scout2015');
  t.same(scout, accountFound(scoutCounts.followers, scoutCounts.following, scoutCounts.posts));
  // TikTok rounds only the visible header; the JSON the collector reads stays exact.
  const roundedCounts = emulatedCounts('tiktok', 'account', 'rounded_star', now);
  t.same(
    await emulated.collect('tiktok', 'account', 'rounded_star'),
    accountFound(roundedCounts.followers, roundedCounts.following, roundedCounts.posts),
  );
  emulated.emulator.world.setFault('tiktok', 'scout2015', 'ratelimit');
  const throttled = await emulated.collect('tiktok', 'account', 'scout2015');
  t.ok(throttled.kind === 'rateLimited' && throttled.retryAt >= now + 59_000, 'rate limited for the 60 s of Retry-After');
  emulated.emulator.world.setFault('tiktok', 'scout2015', 'none');
  t.same(await emulated.collect('tiktok', 'account', 'scout2015'), scout);
});
