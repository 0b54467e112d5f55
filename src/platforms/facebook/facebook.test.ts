import t from 'tap';
import { facebookPage } from './identifiers.js';
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

const page = refsTo('facebook', 'account');
const pageFound = (likes: number) => foundOutcome({ followers: [likes, 'likes'], following: [null, 'following'], posts: [null, 'posts'] });

t.test('facebook identifiers - page usernames and ids per Facebook syntax', async (t) => {
  for (const ok of ['nasa1', 'NatGeo', 'coca.cola', '20531316728', 'x'.repeat(50)]) t.ok(facebookPage.pattern.test(ok), ok);
  for (const bad of [
    'nasa',
    '.nasa1',
    'nasa1.',
    'nat_geo',
    'nat-geo',
    'x'.repeat(51),
    'nat geo',
    'https://facebook.com/nasa',
    'pages/nasa',
    '',
  ])
    t.notOk(facebookPage.pattern.test(bad), bad);
  t.equal(facebookPage.normalize('NatGeo'), 'natgeo');
  t.equal(facebookPage.namePart('natgeo'), 'natgeo');
});

t.test('facebook collector - one page: fan_count is followers with semantic likes', async (t) => {
  const http = fixtureHttp([[/\/v23\.0\/cocacola\?/, reply(200, fixture('facebook', 'page.json'))]]);
  const [outcome] = await collectorWithFixtures('facebook', http).collect([page('cocacola')], signal);
  t.same(outcome, pageFound(1893774));
  t.same(http.calls, ['https://facebook.example/v23.0/cocacola?fields=fan_count&access_token=test-credential']);
});

t.test('facebook collector - batches pages with ids= and falls back when an alias is unknown', async (t) => {
  const batch = fixtureHttp([[/ids=nasa,natgeo/, reply(200, fixture('facebook', 'pages.json'))]]);
  t.same(await collectorWithFixtures('facebook', batch).collect([page('nasa'), page('natgeo')], signal), [
    pageFound(27614203),
    pageFound(51302288),
  ]);
  t.same(batch.calls, ['https://facebook.example/v23.0/?ids=nasa,natgeo&fields=fan_count&access_token=test-credential']);

  const fallback = fixtureHttp([
    [/ids=/, reply(404, fixture('facebook', 'not-found.json'))],
    [/\/nosuchpage12345\?/, reply(404, fixture('facebook', 'not-found.json'))],
    [/\/cocacola\?/, reply(200, fixture('facebook', 'page.json'))],
  ]);
  t.same(await collectorWithFixtures('facebook', fallback).collect([page('nosuchpage12345'), page('cocacola')], signal), [
    { kind: 'notFound' },
    pageFound(1893774),
  ]);
  t.equal(fallback.calls.length, 3);

  const partial = fixtureHttp([[/ids=/, reply(200, '{"nasa":{"fan_count":5,"id":"1"}}')]]);
  t.same(await collectorWithFixtures('facebook', partial).collect([page('nasa'), page('natgeo')], signal), [
    pageFound(5),
    { kind: 'failed', reason: "page 'natgeo' missing from the multi-id answer" },
  ]);

  const throttled = fixtureHttp([[/ids=/, reply(400, fixture('facebook', 'rate-limited.json'), { 'retry-after': '120' })]]);
  t.same(await collectorWithFixtures('facebook', throttled).collect([page('nasa'), page('natgeo')], signal), [
    { kind: 'rateLimited', retryAt: fixedNow + 120_000 },
    { kind: 'rateLimited', retryAt: fixedNow + 120_000 },
  ]);
});

t.test('facebook collector - maps Graph errors to distinct outcomes', async (t) => {
  const outcome = async (response: ReturnType<typeof reply>) =>
    (await collectorWithFixtures('facebook', fixtureHttp([[/./, response]])).collect([page('cocacola')], signal))[0];
  t.same(await outcome(reply(404, fixture('facebook', 'not-found.json'))), { kind: 'notFound' });
  t.same(await outcome(reply(400, fixture('facebook', 'unknown-id.json'))), { kind: 'notFound' });
  t.same(await outcome(reply(400, fixture('facebook', 'rate-limited.json'))), { kind: 'rateLimited', retryAt: fixedNow + 60_000 });
  const usage = JSON.stringify({ '20531316728': [{ type: 'pages', call_count: 100, estimated_time_to_regain_access: 7 }] });
  t.same(await outcome(reply(400, fixture('facebook', 'rate-limited.json'), { 'x-business-use-case-usage': usage })), {
    kind: 'rateLimited',
    retryAt: fixedNow + 7 * 60_000,
  });
  t.same(await outcome(reply(429, 'Too Many Requests')), { kind: 'rateLimited', retryAt: fixedNow + 60_000 });
  t.same(await outcome(reply(400, fixture('facebook', 'expired-token.json'))), {
    kind: 'failed',
    reason:
      'graph error 190/463: Error validating access token: Session has expired on Sunday, 22-Nov-26 12:00:00 PST. The current time is Monday, 23-Nov-26 04:00:00 PST.',
  });
  t.same(await outcome(reply(502, '<html>Bad Gateway</html>')), { kind: 'failed', reason: 'unexpected upstream status 502' });
  t.same(await outcome(reply(200, '{"id":"20531316728"}')), unparsable);
  t.same(await outcome(reply(200, '{"fan_count":')), unparsable);
});

t.test('facebook against the emulator - found, batched, missing, flaky, faults', async (t) => {
  const emulated = await emulatedCollectors();
  t.teardown(() => emulated.close());
  const single = await emulated.collect('facebook', 'account', 'CocaCola');
  t.same(single, pageFound(emulatedCounts('facebook', 'account', 'cocacola', fixedNow).likes));
  const [batchedSame, other] = await emulated.collectMany('facebook', [
    ['account', 'cocacola'],
    ['account', 'natgeo'],
  ]);
  t.same(batchedSame, single);
  t.equal(other!.kind, 'found');
  const [missing, present] = await emulated.collectMany('facebook', [
    ['account', 'missing.page'],
    ['account', 'cocacola'],
  ]);
  t.same([missing, present], [{ kind: 'notFound' }, single]);
  emulated.emulator.world.setFault('facebook', 'cocacola', 'ratelimit');
  const throttled = await emulated.collect('facebook', 'account', 'cocacola');
  t.equal(throttled.kind, 'rateLimited');
  t.ok(throttled.kind === 'rateLimited' && throttled.retryAt - fixedNow > 4 * 60_000, 'retry after the 5 minutes the usage header gives');
  emulated.emulator.world.setFault('facebook', 'cocacola', 'none');
  t.same(await emulated.collect('facebook', 'account', 'cocacola'), single);
});
