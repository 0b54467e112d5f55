import t from 'tap';
import { linkedinCompany, linkedinProfile } from './identifiers.js';
import { emulatedCounts } from '../../emulator/counts.js';
import { abbreviateCount, expandCount } from '../counts.js';
import type { ResourceRef, ResourceType } from '../../model.js';
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

const company = refsTo('linkedin', 'organization');
const person = refsTo('linkedin', 'account');
// docs/api.md#a-14: LinkedIn's public pages report no following or post totals, so both are null.
const followersFound = (followers: number) =>
  foundOutcome({ followers: [followers, 'followers'], following: [null, 'following'], posts: [null, 'posts'] });
const page = (name: string) => reply(200, fixture('linkedin', name), { 'content-type': 'text/html; charset=utf-8' });
const companyPage = fixture('linkedin', 'company.html');
const profilePage = fixture('linkedin', 'profile.html');
/** The company fixture with its meta description replaced. */
const withDescription = (description: string) =>
  reply(200, companyPage.replace(/<meta name="description" content="[^"]*">/, `<meta name="description" content="${description}">`));
/** The profile fixture with its Person's interactionStatistic replaced. */
const withStatistic = (statistic: string) =>
  reply(200, profilePage.replace(/"interactionStatistic":\{[^}]*\}/, `"interactionStatistic":${statistic}`));

async function outcomeOf(ref: ResourceRef, response: ReturnType<typeof reply>) {
  return (await collectorWithFixtures('linkedin', fixtureHttp([[/./, response]])).collect([ref], signal))[0];
}

t.test('linkedin identifiers - company names and ids per LinkedIn syntax', async (t) => {
  for (const ok of ['microsoft', 'Acme-Robotics', 'acme_robotics', '1035', '3m', 'x', 'booking.com', 'johnson-&-johnson', 'a'.repeat(100)])
    t.ok(linkedinCompany.pattern.test(ok), ok);
  for (const bad of [
    '',
    '-acme',
    'acme-',
    '_acme',
    'acme.',
    '.acme',
    '&acme',
    'a'.repeat(101),
    'acme robotics',
    'acme/jobs',
    'acme?trk=1',
    'acme#about',
    "l'oreal",
    'https://www.linkedin.com/company/acme',
    'company/acme',
    'acme%20robotics',
  ])
    t.notOk(linkedinCompany.pattern.test(bad), bad);
  t.equal(linkedinCompany.maxLength, 100);
  t.equal(linkedinCompany.normalize('Booking.COM'), 'booking.com');
  t.equal(linkedinCompany.namePart('acme-robotics'), 'acme-robotics');
});

t.test('linkedin identifiers - personal custom URLs per LinkedIn syntax', async (t) => {
  for (const ok of ['jane-doe-4b1a2c', 'JaneDoe', 'abc', '123', 'j-d', 'a'.repeat(100)]) t.ok(linkedinProfile.pattern.test(ok), ok);
  for (const bad of [
    '',
    'ab',
    '-jane',
    'jane-',
    'jane_doe',
    'jane.doe',
    'a'.repeat(101),
    'jane doe',
    '@janedoe',
    'in/janedoe',
    'janedoe?trk=1',
    'https://www.linkedin.com/in/janedoe',
    'johnson-&-johnson',
  ])
    t.notOk(linkedinProfile.pattern.test(bad), bad);
  t.equal(linkedinProfile.maxLength, 100);
  t.equal(linkedinProfile.normalize('Jane-Doe-4B1A2C'), 'jane-doe-4b1a2c');
  t.equal(linkedinProfile.namePart('jane-doe-4b1a2c'), 'jane-doe-4b1a2c');
});

t.test('linkedin collector - a company page: the count after the name in the meta description', async (t) => {
  const http = fixtureHttp([[/\/company\/acme-robotics\/$/, page('company.html')]]);
  const [outcome] = await collectorWithFixtures('linkedin', http).collect([company('acme-robotics')], signal);
  // Not 1999 (in the name), not 250 or 3,000 (in the about text): the count after "|".
  t.same(outcome, followersFound(12345));
  t.same(http.calls, ['https://linkedin.example/company/acme-robotics/']);
});

t.test('linkedin collector - abbreviated company counts are expanded (docs/api.md#a-17)', async (t) => {
  t.same(await outcomeOf(company('3m'), page('company-abbreviated.html')), followersFound(4_900_000), '3M | 4.9M followers');
  t.same(await outcomeOf(company('acme'), withDescription('Acme | 1.2K followers on LinkedIn. Robots.')), followersFound(1200));
  t.same(await outcomeOf(company('acme'), withDescription('Acme | 3M followers on LinkedIn. Robots.')), followersFound(3_000_000));
  t.same(await outcomeOf(company('acme'), withDescription('Acme | 987 followers on LinkedIn. Robots.')), followersFound(987));
  t.same(await outcomeOf(company('acme'), withDescription('Acme | 1 follower on LinkedIn. Robots.')), followersFound(1), 'singular');
  t.same(await outcomeOf(company('acme'), withDescription('Acme | 0 followers on LinkedIn.')), followersFound(0), 'a real zero');
});

t.test('linkedin collector - names with numbers, pipes and character references do not leak into the count', async (t) => {
  t.same(
    await outcomeOf(company('100fa'), withDescription('100 Followers Agency | 2,345 followers on LinkedIn. We grow audiences.')),
    followersFound(2345),
  );
  t.same(
    await outcomeOf(company('studio-54'), withDescription('Studio 54 | Events | 678 followers on LinkedIn. Since 1977.')),
    followersFound(678),
  );
  t.same(
    await outcomeOf(company('att'), withDescription('AT&amp;T | 1,234,567 followers on LinkedIn. It&#39;s 5G.')),
    followersFound(1234567),
  );
  t.same(
    await outcomeOf(company('acme'), withDescription('Acme &#x7C; 4,321&nbsp;followers on LinkedIn.')),
    followersFound(4321),
    'references decoded',
  );
  // Attribute order is not LinkedIn's contract; the description is found either way.
  const reordered = companyPage.replace(/<meta name="description" content="([^"]*)">/, '<meta content="$1" name="description" />');
  t.same(await outcomeOf(company('acme-robotics'), reply(200, reordered)), followersFound(12345));
});

t.test('linkedin collector - a profile page: the JSON-LD Person FollowAction count', async (t) => {
  const http = fixtureHttp([[/\/in\/jane-doe-4b1a2c\/$/, page('profile.html')]]);
  const [outcome] = await collectorWithFixtures('linkedin', http).collect([person('jane-doe-4b1a2c')], signal);
  // Exact from JSON-LD, not the rounded "8K followers" of the header nor "500+ connections".
  t.same(outcome, followersFound(8432));
  t.same(http.calls, ['https://linkedin.example/in/jane-doe-4b1a2c/']);
  const counter = (type: string, count: number) =>
    `{"@type":"InteractionCounter","interactionType":"${type}","userInteractionCount":${count}}`;
  t.same(
    await outcomeOf(
      person('jane-doe-4b1a2c'),
      withStatistic(`[${counter('https://schema.org/LikeAction', 5)},${counter('http://schema.org/FollowAction', 77)}]`),
    ),
    followersFound(77),
    'a list of counters: the FollowAction one',
  );
});

t.test('linkedin collector - missing pages, throttling, login walls and broken pages', async (t) => {
  for (const ref of [company('acme-robotics'), person('jane-doe-4b1a2c')]) {
    const outcome = (response: ReturnType<typeof reply>) => outcomeOf(ref, response);
    t.same(await outcome(reply(404, fixture('linkedin', 'not-found.html'))), { kind: 'notFound' }, `${ref.type}: 404`);
    t.same(
      await outcome(reply(999, fixture('linkedin', 'authwall.html'))),
      { kind: 'rateLimited', retryAt: fixedNow + 60_000 },
      `${ref.type}: 999`,
    );
    t.same(await outcome(reply(429, 'Too Many Requests', { 'retry-after': '120' })), { kind: 'rateLimited', retryAt: fixedNow + 120_000 });
    t.same(await outcome(reply(429, '')), { kind: 'rateLimited', retryAt: fixedNow + 60_000 });
    const authwall =
      'https://www.linkedin.com/authwall?trk=qf&original_referer=&sessionRedirect=https%3A%2F%2Fwww.linkedin.com%2Fin%2Fjane';
    for (const status of [302, 303])
      t.same(await outcome(reply(status, '', { location: authwall })), {
        kind: 'failed',
        reason: 'linkedin login wall (redirected to https://www.linkedin.com/authwall)',
      });
    t.same(await outcome(reply(302, '', { location: 'https://www.linkedin.com/uas/login?session_redirect=x' })), {
      kind: 'failed',
      reason: 'linkedin login wall (redirected to https://www.linkedin.com/uas/login)',
    });
    t.same(await outcome(reply(301, '', { location: 'https://evil.example/company/acme/' })), {
      kind: 'failed',
      reason: 'linkedin redirected to https://evil.example/company/acme/',
    });
    t.same(await outcome(reply(302, '')), { kind: 'failed', reason: 'linkedin redirected to no location' });
    t.same(await outcome(reply(500, 'oops')), { kind: 'failed', reason: 'unexpected upstream status 500' });
    // The authwall script page served as 200, an empty page, the wrong kind of page: never a zero.
    t.same(await outcome(page('authwall.html')), unparsable, `${ref.type}: authwall page as 200`);
    t.same(await outcome(reply(200, '')), unparsable);
    t.same(
      await outcome(page(ref.type === 'organization' ? 'profile.html' : 'company.html')),
      unparsable,
      `${ref.type}: the other kind of page`,
    );
  }
});

t.test('linkedin collector - a changed company page fails instead of reading a wrong number', async (t) => {
  const outcome = (response: ReturnType<typeof reply>) => outcomeOf(company('acme-robotics'), response);
  t.same(await outcome(withDescription('Acme Robotics | LinkedIn')), unparsable, 'no count');
  t.same(await outcome(withDescription('Acme Robotics | 12.345 Follower auf LinkedIn.')), unparsable, 'another language');
  t.same(await outcome(withDescription('Acme Robotics 12,345 followers on LinkedIn.')), unparsable, 'no name separator');
  t.same(await outcome(withDescription('Acme Robotics | many followers on LinkedIn.')), unparsable);
  t.same(await outcome(withDescription('Acme | 1,2,3 followers on LinkedIn.')), unparsable, 'not a count');
  t.same(
    await outcome(withDescription('Acme Robotics | 12.345 followers on LinkedIn.')),
    unparsable,
    'a decimal without K/M/B is not a count',
  );
  // The og:description and the header still carry "12,345 followers"; only the description is read.
  t.same(await outcome(reply(200, companyPage.replace(/<meta name="description"[^>]*>/, ''))), unparsable, 'no description');
});

t.test('linkedin collector - a changed profile page fails instead of reading a wrong number', async (t) => {
  const outcome = (response: ReturnType<typeof reply>) => outcomeOf(person('jane-doe-4b1a2c'), response);
  t.same(await outcome(reply(200, profilePage.replace(/,"interactionStatistic":\{[^}]*\}/, ''))), unparsable, 'no interactionStatistic');
  t.same(
    await outcome(
      withStatistic('{"@type":"InteractionCounter","interactionType":"https://schema.org/LikeAction","userInteractionCount":5}'),
    ),
    unparsable,
    'not FollowAction',
  );
  t.same(
    await outcome(withStatistic('{"interactionType":"https://schema.org/FollowAction","userInteractionCount":"8K"}')),
    unparsable,
    'a string count',
  );
  t.same(
    await outcome(withStatistic('{"interactionType":"https://schema.org/FollowAction","userInteractionCount":-1}')),
    unparsable,
    'a negative count',
  );
  t.same(await outcome(reply(200, profilePage.replace('"@type":"Person"', '"@type":"Organization"'))), unparsable, 'no Person');
  t.same(
    await outcome(reply(200, profilePage.replace('{"@context":"http://schema.org","@graph":[', '{"@graph":[{'))),
    unparsable,
    'JSON that does not parse',
  );
  t.same(
    await outcome(reply(200, profilePage.replace(/<script type="application\/ld\+json">[\s\S]*?<\/script>/, ''))),
    unparsable,
    'no JSON-LD',
  );
});

t.test('linkedin collector - a numeric company id is followed once to its vanity page on the same host', async (t) => {
  const http = fixtureHttp([
    [/\/company\/1035\/$/, reply(301, '', { location: 'https://linkedin.example/company/acme-robotics/?trk=redirect' })],
    [/\/company\/acme-robotics\//, page('company.html')],
    [/\/company\/2040\/$/, reply(301, '', { location: '/company/3040/' })],
    [/\/company\/3040\/$/, reply(301, '', { location: '/company/acme-robotics/' })],
    [/\/company\/5050\/$/, reply(301, '', { location: '/company/acme-robotics/jobs/' })],
    [/\/company\/6060\/$/, reply(301, '', { location: '/in/jane-doe-4b1a2c/' })],
  ]);
  const collector = collectorWithFixtures('linkedin', http);
  t.same((await collector.collect([company('1035')], signal))[0], followersFound(12345));
  t.same(http.calls, ['https://linkedin.example/company/1035/', 'https://linkedin.example/company/acme-robotics/?trk=redirect']);
  t.same(
    (await collector.collect([company('2040')], signal))[0],
    { kind: 'failed', reason: 'linkedin redirected to /company/acme-robotics/' },
    'one hop only',
  );
  t.same(
    (await collector.collect([company('5050')], signal))[0],
    { kind: 'failed', reason: 'linkedin redirected to /company/acme-robotics/jobs/' },
    'not a company page',
  );
  t.same(
    (await collector.collect([company('6060')], signal))[0],
    { kind: 'failed', reason: 'linkedin redirected to /in/jane-doe-4b1a2c/' },
    'not the same kind',
  );
});

t.test('linkedin against the emulator - found, rounded, missing, flaky, faults', async (t) => {
  const emulated = await emulatedCollectors();
  t.teardown(() => emulated.close());
  const now = fixedNow;
  const followersOf = (type: ResourceType, name: string) => emulatedCounts('linkedin', type, name, now).followers;

  const acme = await emulated.collect('linkedin', 'organization', 'Acme-Robotics');
  t.same(acme, followersFound(followersOf('organization', 'acme-robotics')));
  const jane = await emulated.collect('linkedin', 'account', 'Jane-Doe');
  t.same(jane, followersFound(followersOf('account', 'jane-doe')));
  // Escaped in the page as LinkedIn escapes it, decoded by the collector.
  t.same(
    await emulated.collect('linkedin', 'organization', 'johnson-&-johnson'),
    followersFound(followersOf('organization', 'johnson-&-johnson')),
  );

  // Company pages show the rounded figure, which is all there is to read; the JSON-LD of people stays exact.
  const roundedCompany = followersOf('organization', 'rounded-corp');
  t.same(await emulated.collect('linkedin', 'organization', 'rounded-corp'), followersFound(expandCount(abbreviateCount(roundedCompany))!));
  t.same(await emulated.collect('linkedin', 'account', 'rounded-person'), followersFound(followersOf('account', 'rounded-person')));

  for (const [type, name, found] of [
    ['organization', 'acme-robotics', acme],
    ['account', 'jane-doe', jane],
  ] as const) {
    emulated.emulator.world.setFault('linkedin', name, 'ratelimit');
    const throttled = await emulated.collect('linkedin', type, name);
    t.ok(throttled.kind === 'rateLimited' && throttled.retryAt >= now + 59_000, `${type}: 999 pauses for a minute`);
    emulated.emulator.world.setFault('linkedin', name, 'malformed');
    t.same(await emulated.collect('linkedin', type, name), unparsable, `${type}: malformed`);
    emulated.emulator.world.setFault('linkedin', name, 'notfound');
    t.same(await emulated.collect('linkedin', type, name), { kind: 'notFound' }, `${type}: notfound`);
    emulated.emulator.world.setFault('linkedin', name, 'none');
    t.same(await emulated.collect('linkedin', type, name), found, `${type}: back to normal`);
  }
});
