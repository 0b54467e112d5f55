// Threads API (graph.threads.net). Accounts: the Profile Discovery lookup
// GET /v1.0/profile_lookup?username=<name>&fields=follower_count
// (https://developers.facebook.com/docs/threads/threads-profiles). Posts: the author is
// looked up the same way, then GET /v1.0/{media-id}/insights?metric=likes,reposts
// (https://developers.facebook.com/docs/threads/insights), which Meta answers only for
// posts of the token's own account.
import Type from 'typebox';
import { found, type CollectionOutcome, type ResourceRef } from '../../model.js';
import { handlePart, idPart } from '../identifiers.js';
import type { Collector, CollectorContext } from '../types.js';
import { reportedCounts } from '../reported.js';
import { jsonBody, settle, unparsable } from '../upstream.js';
import { graphFailure, graphOutcome, isUnknownObject } from '../facebook/graphApi.js';

export const threadsApiVersion = 'v1.0';

const count = Type.Integer({ minimum: 0 });
const profileBody = jsonBody(Type.Object({ follower_count: count }));
const insightsBody = jsonBody(
  Type.Object({ data: Type.Array(Type.Object({ name: Type.String(), values: Type.Array(Type.Object({ value: count }), { minItems: 1 }) })) }),
);

/** The lifetime value of one media insight metric, if the answer holds it. */
const metricValue = (data: ReadonlyArray<{ name: string; values: ReadonlyArray<{ value: number }> }>, name: string) =>
  data.find((metric) => metric.name === name)?.values[0]?.value;

export function createThreadsCollector(context: CollectorContext): Collector {
  const token = encodeURIComponent(context.credentials.THREADS_ACCESS_TOKEN ?? '');
  const headers = { accept: 'application/json', 'user-agent': 'datapoints' };
  const get = (path: string, signal: AbortSignal) =>
    context.http.get(`${context.baseUrl}/${threadsApiVersion}/${path}&access_token=${token}`, headers, signal);

  /** The follower count of a profile, or the outcome that ends this collection. */
  const lookupFollowers = async (username: string, signal: AbortSignal): Promise<number | CollectionOutcome> => {
    const response = await get(`profile_lookup?username=${encodeURIComponent(username)}&fields=follower_count`, signal);
    if (response.status !== 200) return graphFailure(response, context.now(), isUnknownObject);
    return profileBody.parse(response.body)?.follower_count ?? unparsable;
  };

  // Threads reports no following or post totals for a profile, and decisions 5 has no views
  // on threads posts: present, value null.
  const collectAccount = async (ref: ResourceRef, signal: AbortSignal): Promise<CollectionOutcome> => {
    const followers = await lookupFollowers(ref.identifier, signal);
    if (typeof followers !== 'number') return followers;
    return found({
      metrics: {
        followers: { value: followers, semantic: 'followers' },
        following: { value: null, semantic: 'following' },
        posts: { value: null, semantic: 'posts' },
      },
    });
  };

  // The media id alone does not name its author, so the handle of `<handle>:<media_id>` is
  // confirmed first: a missing author is not_found, not a confusing insights error.
  const collectPost = async (ref: ResourceRef, signal: AbortSignal): Promise<CollectionOutcome> => {
    const author = await lookupFollowers(handlePart(ref.identifier), signal);
    if (typeof author !== 'number') return author;
    const response = await get(`${encodeURIComponent(idPart(ref.identifier))}/insights?metric=likes,reposts`, signal);
      return graphOutcome(response, context.now(), isUnknownObject, (body) => {
      const data = insightsBody.parse(body)?.data;
      if (!data) return unparsable;
      return reportedCounts({
        views: [null, 'views'],
        likes: [metricValue(data, 'likes'), 'likes'],
        reposts: [metricValue(data, 'reposts'), 'reposts'],
      });
    });
  };

  return {
    maxBatch: 1,
    collect: (refs, signal) =>
      Promise.all(refs.map((ref) => settle(() => (ref.type === 'post' ? collectPost(ref, signal) : collectAccount(ref, signal))))),
  };
}
