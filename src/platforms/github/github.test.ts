import t from 'tap';
import { githubAccount, githubRepository } from './identifiers.js';
import { collectorWithFixtures, fixedNow, fixture, fixtureHttp, reply, signal } from '../../../test/helpers/platforms.js';

t.test('github identifiers - logins and owner:repository per GitHub syntax', async (t) => {
  for (const ok of ['octocat', 'Octo-Cat', 'a', 'x'.repeat(39)]) t.ok(githubAccount.pattern.test(ok), ok);
  for (const bad of ['-octo', 'octo-', 'x'.repeat(40), 'octo cat', 'https://github.com/octocat', 'octo/cat', 'octo_cat', ''])
    t.notOk(githubAccount.pattern.test(bad), bad);
  for (const ok of ['octocat:Hello-World', 'o:a.b_c-d', 'o:.github']) t.ok(githubRepository.pattern.test(ok), ok);
  for (const bad of ['octocat', 'octocat:', 'octocat:..', 'octocat:.', 'octocat/Hello-World', `o:${'r'.repeat(101)}`])
    t.notOk(githubRepository.pattern.test(bad), bad);
  t.equal(githubAccount.normalize('Torvalds'), 'torvalds');
  t.equal(githubRepository.normalize('Octocat:Hello-World'), 'octocat:hello-world');
  t.equal(githubRepository.namePart('octocat:hello-world'), 'octocat');
});

t.test('github collector - parses the real user and repository bodies', async (t) => {
  const http = fixtureHttp([
    [/\/users\/octocat$/, reply(200, fixture('github', 'user.json'))],
    [/\/repos\/octocat\/hello-world$/, reply(200, fixture('github', 'repository.json'))],
  ]);
  const collector = collectorWithFixtures('github', http);
  const [user, repo] = await collector.collect(
    [
      { platform: 'github', type: 'account', identifier: 'octocat' },
      { platform: 'github', type: 'post', identifier: 'octocat:hello-world' },
    ],
    signal,
  );
  t.same(user, {
    kind: 'found',
    datapoints: {
      metrics: {
        followers: { value: 21475, semantic: 'followers' },
        following: { value: 9, semantic: 'following' },
        posts: { value: 8, semantic: 'repositories' },
      },
    },
  });
  t.same(repo, {
    kind: 'found',
    datapoints: {
      metrics: {
        views: { value: null, semantic: 'views' },
        likes: { value: 3181, semantic: 'stars' },
        reposts: { value: 4612, semantic: 'forks' },
        replies: { value: null, semantic: 'replies' },
      },
    },
  });
});

t.test('github collector - maps 404, rate limits and bad bodies to distinct outcomes', async (t) => {
  const ref = { platform: 'github' as const, type: 'account' as const, identifier: 'octocat' };
  const outcome = async (response: ReturnType<typeof reply>) =>
    (await collectorWithFixtures('github', fixtureHttp([[/./, response]])).collect([ref], signal))[0];
  t.same(await outcome(reply(404, fixture('github', 'not-found.json'))), { kind: 'notFound' });
  const reset = String(fixedNow / 1000 + 120);
  t.same(await outcome(reply(403, fixture('github', 'rate-limited.json'), { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset })), {
    kind: 'rateLimited',
    retryAt: fixedNow + 120_000,
  });
  t.same(await outcome(reply(429, '{}', { 'retry-after': '30' })), { kind: 'rateLimited', retryAt: fixedNow + 30_000 });
  t.same(await outcome(reply(403, '{"message":"Forbidden"}')), { kind: 'failed', reason: 'unexpected upstream status 403' });
  t.same(await outcome(reply(200, '{"login":"octocat"}')), { kind: 'failed', reason: 'upstream body does not match the expected shape' });
  t.same(await outcome(reply(200, '<html>')), { kind: 'failed', reason: 'upstream body does not match the expected shape' });
});

t.test('github collector - sends the token and identifies itself', async (t) => {
  const seen: Array<Record<string, string>> = [];
  const collector = collectorWithFixtures('github', {
    async get(_url, headers) {
      seen.push(headers);
      return reply(200, fixture('github', 'user.json'));
    },
  });
  await collector.collect([{ platform: 'github', type: 'account', identifier: 'octocat' }], signal);
  t.equal(seen[0]!.authorization, 'Bearer test-credential');
  t.equal(seen[0]!['user-agent'], 'datapoints');
});

// Found, rate limited, malformed and recovery against the emulator: test/platforms/conformance.test.ts.
