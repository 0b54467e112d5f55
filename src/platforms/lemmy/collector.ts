// Lemmy's HTTP API on each user's, community's or post's home server (docs/platforms.md#federated-platforms),
// read without a token: GET /api/v3/user, /api/v3/community and /api/v3/post (Lemmy 0.19), and
// where a server no longer serves v3, the same under /api/v4 (Lemmy 1.0: /person for users).
// The shapes are lemmy-js-client's types for each version.
import Type from 'typebox';
import { failed, notFound, rateLimited, type CollectionOutcome, type ResourceRef } from '../../model.js';
import type { UpstreamResponse } from '../http.js';
import { hostOf, postIdOf, userOf } from '../federated.js';
import { reportedCounts } from '../reported.js';
import { oneAtATime } from '../lookups.js';
import type { Collector, CollectorContext } from '../types.js';
import { jsonBody, retryAtOf, unexpectedStatus, unparsable } from '../upstream.js';

const count = Type.Optional(Type.Integer({ minimum: 0 }));
/** Lemmy 0.19 (v3) keeps the counts in the view's `counts`; Lemmy 1.0 (v4) on the entity itself. */
const personBody = jsonBody(
  Type.Object({
    person_view: Type.Object({
      person: Type.Object({ post_count: count }),
      counts: Type.Optional(Type.Object({ post_count: count })),
    }),
  }),
);
const communityCounts = { subscribers: count, posts: count };
const communityBody = jsonBody(
  Type.Object({
    community_view: Type.Object({
      community: Type.Object(communityCounts),
      counts: Type.Optional(Type.Object(communityCounts)),
    }),
  }),
);
const postCounts = { upvotes: count, comments: count };
const postBody = jsonBody(
  Type.Object({ post_view: Type.Object({ post: Type.Object(postCounts), counts: Type.Optional(Type.Object(postCounts)) }) }),
);
const errorBody = jsonBody(Type.Object({ error: Type.String({ maxLength: 100 }) }));

/** 0.19 names what it could not find (HTTP 400); 1.0 says `not_found` (HTTP 404). */
const notFoundErrors: ReadonlySet<string> = new Set(['couldnt_find_person', 'couldnt_find_community', 'couldnt_find_post', 'not_found']);

/** What a non-200 answer means; `noRoute` when the server has no such API version (a 404 that is not Lemmy's error). */
function refusalOf(response: UpstreamResponse, now: number): CollectionOutcome | 'noRoute' | undefined {
  if (response.status === 200) return undefined;
  const error = errorBody.parse(response.body)?.error;
  // Lemmy's per-IP limits answer 429 (`rate_limit_error`) without a reset header.
  if (response.status === 429 || error === 'rate_limit_error') return rateLimited(retryAtOf(response, now));
  if ((response.status === 400 || response.status === 404) && error !== undefined && notFoundErrors.has(error)) return notFound;
  if (response.status === 404 && error === undefined) return 'noRoute';
  return unexpectedStatus(response);
}

/** The request of each type, for an API version: its path and query, and how its answer becomes counts. */
function requestOf(ref: ResourceRef, version: 'v3' | 'v4'): { path: string; read(body: string): CollectionOutcome } {
  switch (ref.type) {
    case 'post':
      return {
        path: `/api/${version}/post?id=${encodeURIComponent(postIdOf(ref.identifier))}`,
        read(body) {
          const view = postBody.parse(body)?.post_view;
          if (!view) return unparsable;
          const counts = view.counts ?? view.post;
          return reportedCounts({
            // docs/api.md#a-14: Lemmy counts no views and has no reposts (a cross-post is a post of its own).
            views: [null, 'views'],
            likes: [counts.upvotes, 'upvotes'],
            reposts: [null, 'reposts'],
            replies: [counts.comments, 'comments'],
          });
        },
      };
    case 'community':
      return {
        path: `/api/${version}/community?name=${encodeURIComponent(userOf(ref.identifier))}`,
        read(body) {
          const view = communityBody.parse(body)?.community_view;
          if (!view) return unparsable;
          const counts = view.counts ?? view.community;
          return reportedCounts({ followers: [counts.subscribers, 'subscribers'], posts: [counts.posts, 'posts'] });
        },
      };
    default:
      return {
        path: `/api/${version}/${version === 'v3' ? 'user' : 'person'}?username=${encodeURIComponent(userOf(ref.identifier))}`,
        read(body) {
          const view = personBody.parse(body)?.person_view;
          if (!view) return unparsable;
          return reportedCounts({
            // A Lemmy user has no followers and follows no one: only communities are followed.
            followers: [null, 'followers'],
            following: [null, 'following'],
            posts: [(view.counts ?? view.person).post_count, 'posts'],
          });
        },
      };
  }
}

export function createLemmyCollector(context: CollectorContext): Collector {
  const headers = { accept: 'application/json', 'user-agent': 'datapoints' };
  return oneAtATime(async (ref, signal) => {
    const root = context.hostUrl(hostOf(ref.identifier));
    for (const version of ['v3', 'v4'] as const) {
      const request = requestOf(ref, version);
      const response = await context.http.get(`${root}${request.path}`, headers, signal);
      const refused = refusalOf(response, context.now());
      if (refused === undefined) return request.read(response.body);
      if (refused !== 'noRoute') return refused;
    }
    return failed(`${hostOf(ref.identifier)} answers neither Lemmy's v3 nor its v4 API`);
  });
}
