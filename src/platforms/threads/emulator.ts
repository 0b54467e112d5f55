// The Threads API as the emulator speaks it: GET /v1.0/profile_lookup?username=&fields= and
// GET /v1.0/{media-id}/insights?metric=, with the Graph family's error answers (100/33 for
// an object that does not exist, code 4 when throttled, 104 without a token).
import type { EmulatedResource, PlatformEmulator } from '../../emulator/types.js';
import { graphErrorReply, graphJson, graphMalformedReply, graphMissingTokenReply, graphRateLimitReply } from '../facebook/graphReplies.js';

const profileLookupPath = /^\/v\d+\.\d+\/profile_lookup$/;
const insightsPath = /^\/v\d+\.\d+\/(\d+)\/insights$/;

/**
 * Meta answers media insights only for the token owner's posts, and a media id does not
 * name its author; the emulator files every media id under the token owner `me`, so a
 * post fault is switched on `me:<media_id>` (or `*`). The author's own conventions
 * (`missing*`, `flaky*`) apply through the profile lookup the collector makes first.
 */
export const tokenOwnerHandle = 'me';

const doesNotExistReply = (id: string) =>
  graphErrorReply(400, {
    message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    type: 'GraphMethodException',
    code: 100,
    error_subcode: 33,
  });

const pick = (object: Record<string, unknown>, fields: readonly string[]) =>
  Object.fromEntries(Object.entries(object).filter(([field]) => field === 'id' || fields.includes(field)));

function profileReply(username: string, resource: EmulatedResource, fields: readonly string[]) {
  const { counts } = resource;
  const id = String(25_000_000_000_000_000 + counts.following * 7919);
  switch (resource.mode) {
    case 'missing': return doesNotExistReply(username);
    case 'ratelimit': return graphRateLimitReply(id, 'threads');
    case 'malformed': return graphMalformedReply;
    case 'normal':
      return graphJson(200, pick({
        id,
        username,
        name: username,
        is_verified: counts.verified,
        follower_count: counts.followers,
        likes_count: counts.likes,
        quotes_count: counts.reposts,
        replies_count: counts.following,
        reposts_count: counts.reposts,
        views_count: counts.views,
      }, fields));
  }
}

function insightsReply(mediaId: string, resource: EmulatedResource, metrics: readonly string[]) {
  const { counts } = resource;
  const values: Record<string, number> = { views: counts.views, likes: counts.likes, replies: counts.following, reposts: counts.reposts, quotes: counts.posts };
  switch (resource.mode) {
    case 'missing': return doesNotExistReply(mediaId);
    case 'ratelimit': return graphRateLimitReply(mediaId, 'threads');
    case 'malformed': return graphMalformedReply;
    case 'normal':
      return graphJson(200, {
        data: metrics.filter((name) => name in values).map((name) => ({
          name,
          period: 'lifetime',
          values: [{ value: values[name] }],
          title: name[0]!.toUpperCase() + name.slice(1),
          description: `The number of ${name} on your post.`,
          id: `${mediaId}/insights/${name}/lifetime`,
        })),
      });
  }
}

export const threadsEmulator: PlatformEmulator = {
  handle(request, context) {
    const insights = insightsPath.exec(request.path);
    if (!insights && !profileLookupPath.test(request.path)) return undefined;
    if (!request.query.get('access_token')) return graphMissingTokenReply;
    if (insights) {
      const mediaId = insights[1]!;
      const metrics = (request.query.get('metric') ?? '').split(',');
      return insightsReply(mediaId, context.lookup('post', `${tokenOwnerHandle}:${mediaId}`), metrics);
    }
    const username = request.query.get('username') ?? '';
    return profileReply(username, context.lookup('account', username), (request.query.get('fields') ?? '').split(','));
  },
};
