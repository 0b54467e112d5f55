// The production credential path: real collectors on the platforms' real hosts with the
// credentials of the environment, and a platform without its required ones disabled.
import t from 'tap';
import { createCollectors, realHttpOf } from './collectors.js';
import { platforms } from './registry.js';
import { fixedNow, fixture, fixtureHttp, foundOutcome, reply, signal } from '../../test/helpers/platforms.js';

t.test('collectors - a platform missing a required credential is disabled and fails every resource with the reason', async (t) => {
  const http = fixtureHttp([]);
  const collectors = createCollectors(undefined, {}, http, () => fixedNow, http);
  const x = collectors.get('x')!;
  t.equal(x.disabledReason, 'x needs X_BEARER_TOKEN in the environment');
  t.same(await x.collector.collect([{ platform: 'x', type: 'account', identifier: 'xdevelopers' }], signal), [
    { kind: 'failed', reason: 'x needs X_BEARER_TOKEN in the environment' },
  ]);
  t.same(http.calls, [], 'no upstream call');
  t.equal(collectors.get('bluesky')!.disabledReason, undefined, 'a platform that needs no credential is enabled');
  t.same(collectors.get('bluesky')!.budget, { concurrency: 4, perMinute: 240 }, 'real collectors keep the platform budget');
});

t.test('collectors - real collectors call the real hosts with the environment credentials', async (t) => {
  const seen: Array<{ url: string; headers: Record<string, string> }> = [];
  const http = {
    async get(url: string, headers: Record<string, string>) {
      seen.push({ url, headers });
      return reply(404, '{}');
    },
    async post(url: string): Promise<never> {
      throw new Error(`no token call expected: ${url}`);
    },
  };
  const collectors = createCollectors(
    undefined,
    { GITHUB_TOKEN: 'ghp_secret', THREADS_ACCESS_TOKEN: 'th_secret' },
    http,
    () => fixedNow,
    http,
  );
  await collectors.get('github')!.collector.collect([{ platform: 'github', type: 'account', identifier: 'octocat' }], signal);
  await collectors.get('threads')!.collector.collect([{ platform: 'threads', type: 'post', identifier: 'zuck:C8ZqKpYt7xY' }], signal);
  t.equal(seen[0]!.url, 'https://api.github.com/users/octocat');
  t.equal(seen[0]!.headers.authorization, 'Bearer ghp_secret', 'the optional token is used when present');
  t.equal(seen[1]!.url, 'https://www.threads.net/@zuck/post/C8ZqKpYt7xY', 'a further origin of the platform');
});

t.test(
  'collectors - threads without its token still collects posts named by their code; accounts and media ids fail uncalled',
  async (t) => {
    const http = fixtureHttp([[/\/@zuck\/post\/C8ZqKpYt7xY$/, reply(200, fixture('threads', 'post-page.html'))]]);
    const threads = createCollectors(undefined, {}, http, () => fixedNow, http).get('threads')!;
    const reason = 'threads needs THREADS_ACCESS_TOKEN in the environment for accounts and posts named by media id';
    t.equal(threads.disabledReason, undefined, 'not disabled: posts by code need no token');
    t.equal(threads.limitedReason, reason);
    const outcomes = await threads.collector.collect(
      [
        { platform: 'threads', type: 'account', identifier: 'zuck' },
        { platform: 'threads', type: 'post', identifier: 'zuck:C8ZqKpYt7xY' },
        { platform: 'threads', type: 'post', identifier: 'zuck:18050206876707110' },
      ],
      signal,
    );
    t.same(outcomes, [
      { kind: 'failed', reason },
      foundOutcome({ views: [null, 'views'], likes: [48211, 'likes'], reposts: [1733, 'reposts'], replies: [5120, 'replies'] }),
      { kind: 'failed', reason },
    ]);
    t.same(http.calls, ['https://www.threads.net/@zuck/post/C8ZqKpYt7xY'], 'only the public page, no API call without a token');
  },
);

t.test('collectors - a federated platform calls the host its reference names: https://HOST, or <upstream>/<platform>/HOST', async (t) => {
  const urls: string[] = [];
  const http = {
    async get(url: string) {
      urls.push(url);
      return reply(404, '{"error":"Record not found"}');
    },
    post: (url: string) => Promise.reject(new Error(`no token call expected: ${url}`)),
  };
  const ref = { platform: 'mastodon' as const, type: 'account' as const, identifier: 'gargron@mastodon.social' };
  await createCollectors(undefined, {}, http, () => fixedNow, http)
    .get('mastodon')!
    .collector.collect([ref], signal);
  await createCollectors('http://127.0.0.1:9', {}, http, () => fixedNow)
    .get('mastodon')!
    .collector.collect([ref], signal);
  t.same(urls, [
    'https://mastodon.social/api/v1/accounts/lookup?acct=gargron',
    'http://127.0.0.1:9/mastodon/mastodon.social/api/v1/accounts/lookup?acct=gargron',
  ]);
});

t.test('collectors - every platform has one API root or names its hosts by reference, never both', async (t) => {
  for (const platform of platforms.values())
    t.ok((platform.realBaseUrl === undefined) === (platform.hostsNamedByCallers === true), platform.code);
});

t.test('collectors - a platform whose references name hosts calls through the host guard, and cannot do without it', async (t) => {
  const plain = fixtureHttp([]);
  const guarded = fixtureHttp([]);
  const federated = { code: 'federated', hostsNamedByCallers: true } as const;
  t.equal(realHttpOf(federated, plain, guarded), guarded, 'the guarded client');
  t.equal(realHttpOf({ code: 'github' }, plain, guarded), plain, 'the others keep the plain one');
  t.throws(() => realHttpOf(federated, plain, undefined), {
    message: "federated connects to hosts that references name: it needs the host guard's client",
  });
});
