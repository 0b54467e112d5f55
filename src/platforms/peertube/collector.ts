// PeerTube's REST API on each account's, channel's or video's home server
// (docs/platforms.md#federated-platforms), read without a token: GET /api/v1/accounts/{name}, then
// for a name that is no account GET /api/v1/video-channels/{name} (accounts and channels share
// one namespace of names on a server), and GET /api/v1/videos/{id}.
// https://docs.joinpeertube.org/api-rest-reference.html
import Type from 'typebox';
import type { CollectionOutcome } from '../../model.js';
import { hostOf, postIdOf, userOf } from '../federated.js';
import { reportedCounts } from '../reported.js';
import { oneAtATime, refusal, type StatusRules } from '../lookups.js';
import type { Collector, CollectorContext } from '../types.js';
import { jsonBody, unparsable } from '../upstream.js';

const count = Type.Optional(Type.Integer({ minimum: 0 }));
const actorBody = jsonBody(Type.Object({ followersCount: count, followingCount: count }));
/** `comments` is a newer field of the video; older servers leave it out. */
const videoBody = jsonBody(Type.Object({ views: count, likes: count, comments: count }));

/** 404 with an RFC 7807 problem; 429 from its per-address limit, with Retry-After. */
const statusRules: StatusRules = { notFoundStatuses: [404] };

export function createPeertubeCollector(context: CollectorContext): Collector {
  const headers = { accept: 'application/json', 'user-agent': 'datapoints' };

  const read = async (host: string, path: string, signal: AbortSignal) => {
    const response = await context.http.get(`${context.hostUrl(host)}${path}`, headers, signal);
    return { response, refused: refusal(response, statusRules, context.now()) };
  };

  const actor = (body: string): CollectionOutcome => {
    const parsed = actorBody.parse(body);
    if (!parsed) return unparsable;
    return reportedCounts({
      followers: [parsed.followersCount, 'subscribers'],
      following: [parsed.followingCount, 'subscriptions'],
      // An account or channel carries no count of its videos; listing them is a call of its own.
      posts: [null, 'videos'],
    });
  };

  return oneAtATime(async (ref, signal) => {
    const host = hostOf(ref.identifier);
    if (ref.type === 'post') {
      const { response, refused } = await read(host, `/api/v1/videos/${encodeURIComponent(postIdOf(ref.identifier))}`, signal);
      if (refused) return refused;
      const video = videoBody.parse(response.body);
      if (!video) return unparsable;
      return reportedCounts({
        views: [video.views, 'views'],
        likes: [video.likes, 'likes'],
        // docs/api.md#a-14: PeerTube has no reposts.
        reposts: [null, 'reposts'],
        replies: [video.comments, 'comments'],
      });
    }
    const name = encodeURIComponent(userOf(ref.identifier));
    const account = await read(host, `/api/v1/accounts/${name}`, signal);
    if (!account.refused) return actor(account.response.body);
    if (account.refused.kind !== 'notFound') return account.refused;
    const channel = await read(host, `/api/v1/video-channels/${name}`, signal);
    return channel.refused ?? actor(channel.response.body);
  });
}
