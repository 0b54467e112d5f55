import t from 'tap';
import { instagramAccount } from './identifiers.js';
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

const account = refsTo('instagram', 'account');
const accountFound = (followers: number, following: number, posts: number) =>
  foundOutcome({ followers: [followers, 'followers'], following: [following, 'following'], posts: [posts, 'posts'] });

t.test('instagram identifiers - usernames per Instagram syntax', async (t) => {
  for (const ok of ['instagram', 'a', 'nat.geo', 'John_Doe_99', '_x_', 'x'.repeat(30)]) t.ok(instagramAccount.pattern.test(ok), ok);
  for (const bad of ['.nat', 'nat.', 'nat..geo', 'nat-geo', 'x'.repeat(31), 'nat geo', '@natgeo', 'https://instagram.com/natgeo', ''])
    t.notOk(instagramAccount.pattern.test(bad), bad);
  t.equal(instagramAccount.normalize('NatGeo'), 'natgeo');
  t.equal(instagramAccount.namePart('natgeo'), 'natgeo');
});

t.test('instagram collector - parses the business discovery answer', async (t) => {
  const http = fixtureHttp([[/business_discovery/, reply(200, fixture('instagram', 'business-discovery.json'))]]);
  const [outcome] = await collectorWithFixtures('instagram', http).collect([account('instagram')], signal);
  t.same(outcome, accountFound(698423105, 239, 8143));
  const fields = encodeURIComponent('business_discovery.username(instagram){followers_count,follows_count,media_count}');
  t.same(http.calls, [`https://instagram.example/v23.0/test-credential?fields=${fields}&access_token=test-credential`]);
});

t.test('instagram collector - maps Graph errors to distinct outcomes', async (t) => {
  const outcome = async (response: ReturnType<typeof reply>) =>
    (await collectorWithFixtures('instagram', fixtureHttp([[/./, response]])).collect([account('instagram')], signal))[0];
  t.same(await outcome(reply(400, fixture('instagram', 'not-found.json'))), { kind: 'notFound' });
  t.same(await outcome(reply(400, fixture('instagram', 'rate-limited.json'), { 'retry-after': '30' })), {
    kind: 'rateLimited',
    retryAt: fixedNow + 30_000,
  });
  t.same(await outcome(reply(400, fixture('instagram', 'user-limit.json'))), { kind: 'rateLimited', retryAt: fixedNow + 60_000 });
  t.same(await outcome(reply(400, '{"error":{"message":"Invalid user id","type":"OAuthException","code":110,"error_subcode":2207050}}')), {
    kind: 'failed',
    reason: 'graph error 110/2207050: Invalid user id',
  });
  t.same(await outcome(reply(500, '{"error":{"message":"An unknown error has occurred.","type":"OAuthException","code":1}}')), {
    kind: 'failed',
    reason: 'graph error 1: An unknown error has occurred.',
  });
  t.same(await outcome(reply(503, 'Service Unavailable')), { kind: 'failed', reason: 'unexpected upstream status 503' });
  t.same(await outcome(reply(200, '{"id":"17841405822304914"}')), unparsable);
  t.same(await outcome(reply(200, '{"business_discovery":{"followers_count":"many","follows_count":1,"media_count":1}}')), unparsable);
});

t.test('instagram against the emulator - found, missing, flaky, faults', async (t) => {
  const emulated = await emulatedCollectors();
  t.teardown(() => emulated.close());
  const counts = emulatedCounts('instagram', 'account', 'natgeo', fixedNow);
  const natgeo = await emulated.collect('instagram', 'account', 'NatGeo');
  t.same(natgeo, accountFound(counts.followers, counts.following, counts.posts));
  emulated.emulator.world.setFault('instagram', 'natgeo', 'ratelimit');
  t.match(await emulated.collect('instagram', 'account', 'natgeo'), { kind: 'rateLimited' });
  emulated.emulator.world.setFault('instagram', 'natgeo', 'none');
  t.same(await emulated.collect('instagram', 'account', 'natgeo'), natgeo);
});
