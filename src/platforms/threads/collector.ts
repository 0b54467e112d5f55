// Threads (docs/platforms.md#threads): accounts by the API's profile lookup; posts by code from
// their public page (any public account), by media id from the API's insights (own posts only).
import Type from 'typebox';
import { found, notFound, type CollectionOutcome, type ResourceRef } from '../../model.js';
import { oneAtATime, refusal } from '../lookups.js';
import { handlePart, idPart } from '../identifiers.js';
import type { Collector, CollectorContext } from '../types.js';
import { reportedCounts } from '../reported.js';
import { jsonBody, unparsable } from '../upstream.js';
import { isMediaId } from './identifiers.js';
import { postOnPage } from './postPage.js';
import { graphFailure, graphOutcome, isUnknownObject } from '../metaGraph/api.js';

export const threadsApiVersion = 'v1.0';

const count = Type.Integer({ minimum: 0 });
const profileBody = jsonBody(Type.Object({ follower_count: count }));
const insightsBody = jsonBody(
  Type.Object({
    data: Type.Array(Type.Object({ name: Type.String(), values: Type.Array(Type.Object({ value: count }), { minItems: 1 }) })),
  }),
);

/** The lifetime value of one media insight metric, if the answer holds it. */
const metricValue = (data: ReadonlyArray<{ name: string; values: ReadonlyArray<{ value: number }> }>, name: string) =>
  data.find((metric) => metric.name === name)?.values[0]?.value;

export function createThreadsCollector(context: CollectorContext): Collector {
  const token = encodeURIComponent(context.credentials.THREADS_ACCESS_TOKEN ?? '');
  const headers = { accept: 'application/json', 'user-agent': 'datapoints' };
  const get = (path: string, signal: AbortSignal) =>
    context.http.get(`${context.baseUrl}/${threadsApiVersion}/${path}&access_token=${token}`, headers, signal);

  /**
   * The follower count of a profile, or the outcome that ends this collection: Profile Discovery
   * (https://developers.facebook.com/docs/threads/threads-profiles).
   */
  const lookupFollowers = async (username: string, signal: AbortSignal): Promise<number | CollectionOutcome> => {
    const response = await get(`profile_lookup?username=${encodeURIComponent(username)}&fields=follower_count`, signal);
    if (response.status !== 200) return graphFailure(response, context.now(), isUnknownObject);
    return profileBody.parse(response.body)?.follower_count ?? unparsable;
  };

  const pageHeaders = {
    accept: 'text/html,application/xhtml+xml',
    'accept-language': 'en-US,en;q=0.9',
    'user-agent': 'Mozilla/5.0 (compatible; datapoints)',
  };

  /** A post of any public account, read from its public page; no token involved. */
  const collectPostPage = async (ref: ResourceRef, signal: AbortSignal): Promise<CollectionOutcome> => {
    const handle = handlePart(ref.identifier);
    const code = idPart(ref.identifier);
    const url = `${context.origins.page}/@${encodeURIComponent(handle)}/post/${encodeURIComponent(code)}`;
    const response = await context.http.get(url, pageHeaders, signal);
    const refused = refusal(response, { notFoundStatuses: [404] }, context.now());
    if (refused) return refused;
    // A page without the post (a login wall, a changed layout) is a failure, never not_found.
    const post = postOnPage(response.body, code);
    if (!post) return unparsable;
    // A code under another author's handle is not the post the caller named.
    if (post.user && post.user.username.toLowerCase() !== handle) return notFound;
    return reportedCounts({
      views: [null, 'views'],
      likes: [post.like_count, 'likes'],
      reposts: [post.text_post_app_info?.repost_count, 'reposts'],
      replies: [post.text_post_app_info?.direct_reply_count, 'replies'],
    });
  };

  // Threads reports no following or post totals for a profile, and docs/api.md#a-14 has no views
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
        replies: [null, 'replies'],
      });
    });
  };

  return oneAtATime((ref, signal) => {
    if (ref.type !== 'post') return collectAccount(ref, signal);
    return isMediaId(ref.identifier) ? collectPost(ref, signal) : collectPostPage(ref, signal);
  });
}
