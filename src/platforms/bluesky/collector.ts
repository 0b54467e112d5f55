// Bluesky (docs/platforms.md#facebook-instagram-linkedin-tiktok-github-bluesky): the public AppView
// over XRPC, no credentials; getProfiles for accounts and post authors' DIDs, then getPosts, 25 a call.
import Type, { type Static } from 'typebox';
import { notFound } from '../../model.js';
import { idPart } from '../identifiers.js';
import type { Collector, CollectorContext } from '../types.js';
import { reportedCounts } from '../reported.js';
import { authorsThenPosts, refusal, type BatchAnswer, type StatusRules } from '../lookups.js';
import { jsonBody, unparsable } from '../upstream.js';

/** The lexicons' maxLength for `actors` and `uris`. */
export const maxActorsPerRequest = 25;

// The lexicons make every count optional (docs/platforms.md#missing-fields).
const count = Type.Optional(Type.Integer({ minimum: 0 }));
const profileSchema = Type.Object({
  did: Type.String(),
  handle: Type.String(),
  followersCount: count,
  followsCount: count,
  postsCount: count,
});
const postSchema = Type.Object({ uri: Type.String(), likeCount: count, repostCount: count, replyCount: count });
const profilesBody = jsonBody(Type.Object({ profiles: Type.Array(profileSchema) }));
const postsBody = jsonBody(Type.Object({ posts: Type.Array(postSchema) }));

type Profile = Static<typeof profileSchema>;
type Post = Static<typeof postSchema>;

/** XRPC errors are `{"error": ..., "message": ...}`; 429 carries ratelimit-* headers, the reset in Unix seconds. */
const statusRules: StatusRules = { notFoundStatuses: [], resetHeader: 'ratelimit-reset' };

/** The at-URI of a post record; the AppView names posts by the author's DID. */
const postUri = (did: string, recordKey: string) => `at://${did}/app.bsky.feed.post/${recordKey}`;

export function createBlueskyCollector(context: CollectorContext): Collector {
  const headers = { accept: 'application/json', 'user-agent': 'datapoints' };

  const call = async <T>(
    method: string,
    params: URLSearchParams,
    signal: AbortSignal,
    read: (body: string) => Map<string, T> | undefined,
  ): Promise<BatchAnswer<T>> => {
    const response = await context.http.get(`${context.baseUrl}/xrpc/${method}?${params}`, headers, signal);
    const refused = refusal(response, statusRules, context.now());
    if (refused) return { refused };
    const byKey = read(response.body);
    return byKey ? { byKey } : { refused: unparsable };
  };

  const fetchProfiles = (handles: readonly string[], signal: AbortSignal) =>
    call<Profile>('app.bsky.actor.getProfiles', new URLSearchParams(handles.map((handle) => ['actors', handle])), signal, (body) => {
      const parsed = profilesBody.parse(body);
      return parsed && new Map(parsed.profiles.map((profile) => [profile.handle.toLowerCase(), profile]));
    });

  const fetchPosts = (uris: readonly string[], signal: AbortSignal) =>
    call<Post>('app.bsky.feed.getPosts', new URLSearchParams(uris.map((uri) => ['uris', uri])), signal, (body) => {
      const parsed = postsBody.parse(body);
      return parsed && new Map(parsed.posts.map((post) => [post.uri, post]));
    });

  // One getProfiles call for every handle of the batch (accounts, and post authors for their
  // DIDs), then at most one getPosts call for the posts whose author was found.
  return authorsThenPosts<Profile, Post>({
    maxBatch: maxActorsPerRequest,
    fetchAuthors: fetchProfiles,
    postKey: (ref, author) => postUri(author.did, idPart(ref.identifier)),
    fetchPosts,
    // Both methods answer 200 and leave out what does not exist
    // (https://docs.bsky.app/docs/api/app-bsky-actor-get-profiles, .../app-bsky-feed-get-posts).
    absent: notFound,
    account: (profile) =>
      reportedCounts({
        followers: [profile.followersCount, 'followers'],
        following: [profile.followsCount, 'following'],
        posts: [profile.postsCount, 'posts'],
      }),
    post: (post) =>
      reportedCounts({
        // docs/api.md#a-14: Bluesky reports no view counts.
        views: [null, 'views'],
        likes: [post.likeCount, 'likes'],
        reposts: [post.repostCount, 'reposts'],
        replies: [post.replyCount, 'replies'],
      }),
  });
}
