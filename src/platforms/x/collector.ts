// X (docs/platforms.md#x): API v2 with an app bearer token, users/by for accounts and post
// authors, then tweets for the posts, up to 100 a call.
import Type, { type Static } from 'typebox';
import { failed, notFound, type CollectionOutcome } from '../../model.js';
import { idPart } from '../identifiers.js';
import type { Collector, CollectorContext } from '../types.js';
import { reportedCounts } from '../reported.js';
import { authorsThenPosts, refusal, type BatchAnswer, type StatusRules } from '../lookups.js';
import { jsonBody, unparsable } from '../upstream.js';
import { snowflakeTime, viewCountingSince } from './identifiers.js';

/** users/by and tweets take at most 100 usernames or ids. */
export const maxLookupsPerRequest = 100;

const count = Type.Optional(Type.Integer({ minimum: 0 }));
const problems = Type.Optional(
  Type.Array(Type.Object({ value: Type.Optional(Type.String()), type: Type.String(), detail: Type.String() })),
);
// Every count may be left out (docs/platforms.md#missing-fields); the ids are what the
// answer is matched on, so those must be there.
const userSchema = Type.Object({
  id: Type.String(),
  username: Type.String(),
  verified: Type.Optional(Type.Boolean()),
  public_metrics: Type.Optional(Type.Object({ followers_count: count, following_count: count, tweet_count: count })),
});
const tweetSchema = Type.Object({
  id: Type.String(),
  author_id: Type.String(),
  public_metrics: Type.Optional(Type.Object({ like_count: count, retweet_count: count, reply_count: count, impression_count: count })),
});
const usersBody = jsonBody(Type.Object({ data: Type.Optional(Type.Array(userSchema)), errors: problems }));
const tweetsBody = jsonBody(Type.Object({ data: Type.Optional(Type.Array(tweetSchema)), errors: problems }));

type User = Static<typeof userSchema>;
type Tweet = Static<typeof tweetSchema>;

/**
 * X counts views only from December 2022 on, and answers `impression_count: 0` for older
 * posts: there a zero means "not counted" (null), while a positive count, which X's own
 * sample shows for such posts, is a count and is kept. docs/platforms.md#x.
 */
export function viewsOf(tweetId: string, impressions: number | undefined): number | null | undefined {
  if (impressions === 0 && snowflakeTime(tweetId) < viewCountingSince) return null;
  return impressions;
}

const notFoundProblem = 'https://api.twitter.com/2/problems/resource-not-found';

/** A 429 carries x-rate-limit-reset in Unix seconds; X answers missing items inside a 200. */
const statusRules: StatusRules = { notFoundStatuses: [], resetHeader: 'x-rate-limit-reset' };

export function createXCollector(context: CollectorContext): Collector {
  const headers = { accept: 'application/json', authorization: `Bearer ${context.credentials.X_BEARER_TOKEN ?? ''}` };

  /**
   * Both lookups (https://docs.x.com/x-api/users/lookup, https://docs.x.com/x-api/posts/lookup)
   * answer 200 with the found resources in `data` and a `Not Found Error` per missing one in
   * `errors`. Keys are lower-cased usernames or tweet ids; a per-item outcome is notFound or X's
   * own detail (e.g. a suspended user).
   */
  const lookup = async <T extends { id: string }>(
    path: string,
    query: Record<string, string>,
    keys: readonly string[],
    keyOf: (item: T) => string,
    parse: (body: string) => { data?: T[]; errors?: Static<typeof problems> } | undefined,
    signal: AbortSignal,
  ): Promise<BatchAnswer<T>> => {
    const response = await context.http.get(`${context.baseUrl}${path}?${new URLSearchParams(query)}`, headers, signal);
    const refused = refusal(response, statusRules, context.now());
    if (refused) return { refused };
    const body = parse(response.body);
    if (!body) return { refused: unparsable };
    const byKey = new Map<string, T | CollectionOutcome>();
    for (const problem of body.errors ?? []) {
      if (problem.value === undefined) continue;
      byKey.set(problem.value.toLowerCase(), problem.type === notFoundProblem ? notFound : failed(`x: ${problem.detail}`));
    }
    for (const item of body.data ?? []) byKey.set(keyOf(item), item);
    for (const key of keys) if (!byKey.has(key)) byKey.set(key, failed(`x answered nothing about '${key}'`));
    return { byKey };
  };

  const fetchUsers = (usernames: readonly string[], signal: AbortSignal) =>
    lookup<User>(
      '/2/users/by',
      { usernames: usernames.join(','), 'user.fields': 'public_metrics,verified' },
      usernames,
      (user) => user.username.toLowerCase(),
      (body) => usersBody.parse(body),
      signal,
    );

  const fetchTweets = (ids: readonly string[], signal: AbortSignal) =>
    lookup<Tweet>(
      '/2/tweets',
      { ids: ids.join(','), 'tweet.fields': 'author_id,public_metrics' },
      ids,
      (tweet) => tweet.id,
      (body) => tweetsBody.parse(body),
      signal,
    );

  // One users/by call for every username of the batch (accounts and post authors), then at
  // most one tweets call for the posts whose author was found.
  return authorsThenPosts<User, Tweet>({
    maxBatch: maxLookupsPerRequest,
    fetchAuthors: fetchUsers,
    postKey: (ref) => idPart(ref.identifier),
    fetchPosts: fetchTweets,
    // lookup() answers every key it was asked for.
    absent: failed('x answered nothing about this resource'),
    account: (user) => {
      const metrics = user.public_metrics;
      return reportedCounts(
        {
          followers: [metrics?.followers_count, 'followers'],
          following: [metrics?.following_count, 'following'],
          posts: [metrics?.tweet_count, 'posts'],
        },
        { verified: [user.verified, 'verified'] },
      );
    },
    post: (tweet, author) => {
      // A tweet by someone else is not the post the caller named.
      if (tweet.author_id !== author.id) return notFound;
      const metrics = tweet.public_metrics;
      return reportedCounts({
        views: [viewsOf(tweet.id, metrics?.impression_count), 'views'],
        likes: [metrics?.like_count, 'likes'],
        reposts: [metrics?.retweet_count, 'reposts'],
        replies: [metrics?.reply_count, 'replies'],
      });
    },
  });
}
