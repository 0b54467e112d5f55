// GitHub REST: GET /users/{login} (users and organizations alike) and GET /repos/{owner}/{repo}.
// https://docs.github.com/rest/users/users#get-a-user, .../repos/repos#get-a-repository
import Type from 'typebox';
import type { CollectionOutcome } from '../../model.js';
import { handlePart, idPart } from '../identifiers.js';
import { header, type UpstreamResponse } from '../http.js';
import type { Collector, CollectorContext } from '../types.js';
import { reportedCounts } from '../reported.js';
import { oneAtATime, refusal, type StatusRules } from '../lookups.js';
import { jsonBody, unparsable } from '../upstream.js';

// Any count may be left out (docs/platforms.md#missing-fields).
const count = Type.Optional(Type.Integer({ minimum: 0 }));
const userBody = jsonBody(Type.Object({ followers: count, following: count, public_repos: count }));
const repositoryBody = jsonBody(Type.Object({ stargazers_count: count, forks_count: count }));

// GitHub signals an exhausted primary limit with 403 + x-ratelimit-remaining: 0, and a
// secondary limit with 403/429 + retry-after; any other 403 is a plain failure.
const statusRules: StatusRules = {
  notFoundStatuses: [404],
  isRateLimited: (response) =>
    response.status === 429 ||
    (response.status === 403 && (header(response, 'x-ratelimit-remaining') === '0' || header(response, 'retry-after') !== undefined)),
  resetHeader: 'x-ratelimit-reset',
};

export function createGithubCollector(context: CollectorContext): Collector {
  const token = context.credentials.GITHUB_TOKEN;
  const headers: Record<string, string> = {
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
    'user-agent': 'datapoints',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };

  const classify = (response: UpstreamResponse, parse: (body: string) => CollectionOutcome): CollectionOutcome =>
    refusal(response, statusRules, context.now()) ?? parse(response.body);

  return oneAtATime(async (ref, signal) => {
    if (ref.type === 'post') {
      const owner = encodeURIComponent(handlePart(ref.identifier));
      const repository = encodeURIComponent(idPart(ref.identifier));
      const response = await context.http.get(`${context.baseUrl}/repos/${owner}/${repository}`, headers, signal);
      return classify(response, (body) => {
        const repo = repositoryBody.parse(body);
        if (!repo) return unparsable;
        return reportedCounts({
          views: [null, 'views'],
          likes: [repo.stargazers_count, 'stars'],
          reposts: [repo.forks_count, 'forks'],
          replies: [null, 'replies'],
        });
      });
    }
    const response = await context.http.get(`${context.baseUrl}/users/${encodeURIComponent(ref.identifier)}`, headers, signal);
    return classify(response, (body) => {
      const user = userBody.parse(body);
      if (!user) return unparsable;
      return reportedCounts({
        followers: [user.followers, 'followers'],
        following: [user.following, 'following'],
        posts: [user.public_repos, 'repositories'],
      });
    });
  });
}
