// GitHub's REST API as the emulator speaks it: the same paths, headers and bodies
// (trimmed to realistic fields) as api.github.com, including its 404 and rate-limit answers.
import { cutOffJson, type FaultReplies, jsonReply as json, replyByMode } from '../emulatorReplies.js';
import type { PlatformEmulator } from '../emulatorContract.js';

const notFoundReply = (docs: string) =>
  json(404, { message: 'Not Found', documentation_url: `https://docs.github.com/rest/${docs}`, status: '404' });

const rateLimitReply = (now: number) =>
  json(
    403,
    {
      message:
        "API rate limit exceeded for 127.0.0.1. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)",
      documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
    },
    { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.ceil(now / 1000) + 60) },
  );

const malformedReply = cutOffJson('{"login":"');

/** GitHub's fault answers for one resource: the 404 of the method `docs` names, its rate limit, a cut-off body. */
const faults = (docs: string, now: number): FaultReplies => ({
  missing: notFoundReply(docs),
  ratelimit: rateLimitReply(now),
  malformed: malformedReply,
});

export const emulator: PlatformEmulator = {
  handle(request, context) {
    const user = /^\/users\/([^/]+)$/.exec(request.path);
    if (user) {
      const login = decodeURIComponent(user[1]!);
      return replyByMode(context.lookup('account', login), faults('users/users#get-a-user', context.now), (counts) => ({
        login,
        id: counts.following * 7919 + 1,
        type: counts.verified ? 'Organization' : 'User',
        site_admin: false,
        public_repos: counts.posts,
        public_gists: 0,
        followers: counts.followers,
        following: counts.following,
        created_at: '2011-01-25T18:44:36Z',
      }));
    }
    const repo = /^\/repos\/([^/]+)\/([^/]+)$/.exec(request.path);
    if (repo) {
      const owner = decodeURIComponent(repo[1]!);
      const name = decodeURIComponent(repo[2]!);
      return replyByMode(context.lookup('post', `${owner}:${name}`), faults('repos/repos#get-a-repository', context.now), (counts) => ({
        name,
        full_name: `${owner}/${name}`,
        owner: { login: owner, type: 'User' },
        private: false,
        stargazers_count: counts.likes,
        watchers_count: counts.likes,
        forks_count: counts.reposts,
        subscribers_count: counts.following,
        open_issues_count: 0,
      }));
    }
    return undefined;
  },
};
