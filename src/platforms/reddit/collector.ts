// Reddit's JSON: GET /user/{name}/about.json, /r/{name}/about.json and /comments/{id}.json, from
// www.reddit.com without credentials or from oauth.reddit.com with an app-only token
// (https://github.com/reddit-archive/reddit/wiki/OAuth2#application-only-oauth).
import Type from 'typebox';
import { failed, notFound, rateLimited, type CollectionOutcome, type ResourceRef } from '../../model.js';
import { appToken } from '../appToken.js';
import { header, type UpstreamResponse } from '../http.js';
import { oneAtATime } from '../lookups.js';
import { reportedCounts } from '../reported.js';
import type { Collector, CollectorContext } from '../types.js';
import { jsonBody, retryAtOf, unexpectedStatus, unparsable } from '../upstream.js';

// Any count may be left out (docs/platforms.md#missing-fields).
const count = Type.Optional(Type.Integer({ minimum: 0 }));

// A suspended user's answer carries `is_suspended` and a few karma fields, no `subreddit`;
// an account without a profile has `subreddit: null`.
const userBody = jsonBody(
  Type.Object({
    kind: Type.Literal('t2'),
    data: Type.Object({
      is_suspended: Type.Optional(Type.Boolean()),
      subreddit: Type.Optional(Type.Union([Type.Null(), Type.Object({ subscribers: count })])),
    }),
  }),
);

// A name Reddit does not know may also come back as an empty listing (the documented oddity).
const subredditBody = jsonBody(
  Type.Union([
    Type.Object({ kind: Type.Literal('t5'), data: Type.Object({ subscribers: count }) }),
    Type.Object({ kind: Type.Literal('Listing'), data: Type.Object({ children: Type.Array(Type.Unknown(), { maxItems: 0 }) }) }),
  ]),
);

// [the post's listing, its comments' listing]. A score is upvotes minus downvotes.
const postBody = jsonBody(
  Type.Tuple([
    Type.Object({
      data: Type.Object({
        children: Type.Tuple([
          Type.Object({
            kind: Type.Literal('t3'),
            data: Type.Object({ score: Type.Optional(Type.Integer()), num_comments: count, num_crossposts: count }),
          }),
        ]),
      }),
    }),
    Type.Unknown(),
  ]),
);

/** Reddit's refusals carry `reason` (`private`, `quarantined`, `banned`, ...). */
const refusalBody = jsonBody(Type.Object({ reason: Type.String() }));

/** Reddit's API rules ask for a unique, descriptive User-Agent; a generic one is throttled. */
export const userAgent = 'server:datapoints:v1 (self-hosted lookups of public counts)';

/** How a subreddit Reddit never had is answered: a redirect to its subreddit search. */
const isSearchRedirect = (response: UpstreamResponse) =>
  response.status === 302 && (header(response, 'location') ?? '').includes('/subreddits/search');

/**
 * A non-200 answer as an outcome, or undefined for a 200. 429 waits for Retry-After, else for
 * `x-ratelimit-reset`, which Reddit gives in seconds from now (not a Unix time). 404 is Reddit's
 * "no such user or post" and a banned subreddit's answer; 403 (private, quarantined, or a blocked
 * client) is a failure with Reddit's reason, never not_found.
 */
function refusal(response: UpstreamResponse, now: number): CollectionOutcome | undefined {
  if (response.status === 429) {
    const reset = Number(header(response, 'x-ratelimit-reset'));
    const fromReset = Number.isFinite(reset) && reset > 0 && header(response, 'retry-after') === undefined;
    return rateLimited(fromReset ? now + reset * 1000 : retryAtOf(response, now));
  }
  if (response.status === 200) return undefined;
  if (response.status === 404 || isSearchRedirect(response)) return notFound;
  const reason = refusalBody.parse(response.body)?.reason;
  return reason === undefined ? unexpectedStatus(response) : failed(`reddit answered ${response.status}: ${reason}`);
}

export function createRedditCollector(context: CollectorContext): Collector {
  const clientId = context.credentials.REDDIT_CLIENT_ID;
  const clientSecret = context.credentials.REDDIT_CLIENT_SECRET;
  const headers = { accept: 'application/json', 'user-agent': userAgent };

  // Both credentials: the app-only flow on oauth.reddit.com; otherwise the public JSON of
  // www.reddit.com (the budget follows the same choice: index.ts, anonymousBudget).
  const token =
    clientId && clientSecret
      ? appToken(context, 'reddit', () => ({
          url: `${context.baseUrl}/api/v1/access_token`,
          headers: {
            ...headers,
            authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: 'grant_type=client_credentials',
        }))
      : undefined;

  const get = (path: string, signal: AbortSignal): Promise<UpstreamResponse | CollectionOutcome> =>
    token
      ? token.authorized(
          (bearer) => context.http.get(`${context.origins.oauth}${path}`, { ...headers, authorization: `bearer ${bearer}` }, signal),
          signal,
        )
      : context.http.get(`${context.baseUrl}${path}`, headers, signal);

  const read = async (ref: ResourceRef, signal: AbortSignal): Promise<CollectionOutcome> => {
    const name = encodeURIComponent(ref.identifier);
    const path =
      ref.type === 'post'
        ? `/comments/${name}.json?limit=1&depth=1`
        : ref.type === 'community'
          ? `/r/${name}/about.json`
          : `/user/${name}/about.json`;
    const response = await get(path, signal);
    if (!('status' in response)) return response;
    const refused = refusal(response, context.now());
    if (refused) return refused;
    switch (ref.type) {
      case 'post':
        return postCounts(response.body);
      case 'community':
        return subredditCounts(response.body);
      default:
        return userCounts(response.body);
    }
  };

  return oneAtATime(read);
}

// A user's followers are the subscribers of their profile (the subreddit u_<name>); Reddit
// publishes no following or post totals for a user, and karma is not a count of anything here.
function userCounts(body: string): CollectionOutcome {
  const user = userBody.parse(body);
  if (!user) return unparsable;
  if (user.data.is_suspended) return failed('reddit: the account is suspended');
  return reportedCounts({
    followers: [user.data.subreddit?.subscribers, 'subscribers'],
    following: [null, 'following'],
    posts: [null, 'posts'],
  });
}

function subredditCounts(body: string): CollectionOutcome {
  const subreddit = subredditBody.parse(body);
  if (!subreddit) return unparsable;
  if (subreddit.kind === 'Listing') return notFound;
  return reportedCounts({ followers: [subreddit.data.subscribers, 'subscribers'], posts: [null, 'posts'] });
}

// Reddit counts no views for posts (its `view_count` is always null). A negative score has no
// count of likes in it: null.
function postCounts(body: string): CollectionOutcome {
  const answer = postBody.parse(body);
  if (!answer) return unparsable;
  const { score, num_comments, num_crossposts } = answer[0].data.children[0].data;
  return reportedCounts({
    views: [null, 'views'],
    likes: [score === undefined || score < 0 ? null : score, 'score'],
    reposts: [num_crossposts, 'crossposts'],
    replies: [num_comments, 'comments'],
  });
}
