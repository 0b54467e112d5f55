// Twitch's Helix API with an app access token: GET /helix/users?login= (the channel's id), then
// /helix/channels/followers?broadcaster_id= (its `total`) or /helix/videos?id= (its `view_count`).
// https://dev.twitch.tv/docs/api/reference/
import Type from 'typebox';
import { failed, notFound, type CollectionOutcome, type ResourceRef } from '../../model.js';
import { appToken } from '../appToken.js';
import type { UpstreamResponse } from '../http.js';
import { handlePart, idPart } from '../identifiers.js';
import { oneAtATime, refusal, type StatusRules } from '../lookups.js';
import { reportedCounts } from '../reported.js';
import type { Collector, CollectorContext } from '../types.js';
import { jsonBody, unparsable } from '../upstream.js';

// Any count may be left out (docs/platforms.md#missing-fields).
const count = Type.Optional(Type.Integer({ minimum: 0 }));
// Helix lists the logins it knows in `data`; an unknown one is left out.
const usersBody = jsonBody(Type.Object({ data: Type.Array(Type.Object({ id: Type.String() }), { maxItems: 1 }) }));
const followersBody = jsonBody(Type.Object({ total: count }));
const videosBody = jsonBody(Type.Object({ data: Type.Array(Type.Object({ user_id: Type.String(), view_count: count }), { maxItems: 1 }) }));

// 404 is Helix's answer for video ids it does not have; 429 comes with Ratelimit-Reset (Unix seconds).
const statusRules: StatusRules = { notFoundStatuses: [404], resetHeader: 'ratelimit-reset' };

export function createTwitchCollector(context: CollectorContext): Collector {
  const clientId = context.credentials.TWITCH_CLIENT_ID ?? '';
  const clientSecret = context.credentials.TWITCH_CLIENT_SECRET ?? '';
  // The secret goes in the form body, never in a URL that logs could keep.
  const token = appToken(context, 'twitch', () => ({
    url: `${context.origins.id}/oauth2/token`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials' }).toString(),
  }));

  /** One Helix GET, classified: the body of a 200, or the outcome that stands for it. */
  const helix = async (path: string, signal: AbortSignal): Promise<string | CollectionOutcome> => {
    const response = await token.authorized(
      (bearer) => context.http.get(`${context.baseUrl}/helix${path}`, { 'client-id': clientId, authorization: `Bearer ${bearer}` }, signal),
      signal,
    );
    if (!isResponse(response)) return response;
    return refusal(response, statusRules, context.now()) ?? response.body;
  };

  /** The channel's user id, or the outcome: not_found when Helix lists no such login. */
  const userId = async (login: string, signal: AbortSignal): Promise<string | CollectionOutcome> => {
    const body = await helix(`/users?login=${encodeURIComponent(login)}`, signal);
    if (typeof body !== 'string') return body;
    const users = usersBody.parse(body);
    if (!users) return unparsable;
    return users.data[0]?.id ?? notFound;
  };

  const collectChannel = async (ref: ResourceRef, signal: AbortSignal): Promise<CollectionOutcome> => {
    const id = await userId(ref.identifier, signal);
    if (typeof id !== 'string') return id;
    const body = await helix(`/channels/followers?broadcaster_id=${encodeURIComponent(id)}&first=1`, signal);
    if (typeof body !== 'string') return body;
    const followers = followersBody.parse(body);
    if (!followers) return unparsable;
    // Helix publishes neither whom a channel follows nor a count of its videos.
    return reportedCounts({ followers: [followers.total, 'followers'], following: [null, 'following'], posts: [null, 'videos'] });
  };

  const collectVideo = async (ref: ResourceRef, signal: AbortSignal): Promise<CollectionOutcome> => {
    const id = await userId(handlePart(ref.identifier), signal);
    if (typeof id !== 'string') return id;
    const body = await helix(`/videos?id=${encodeURIComponent(idPart(ref.identifier))}`, signal);
    if (typeof body !== 'string') return body;
    const videos = videosBody.parse(body);
    if (!videos) return unparsable;
    const video = videos.data[0];
    if (!video) return failed('twitch answered 200 without the video');
    // A video of another channel is not the video the caller named.
    if (video.user_id !== id) return notFound;
    // Helix counts views only: no likes, reposts or comments on a video.
    return reportedCounts({
      views: [video.view_count, 'views'],
      likes: [null, 'likes'],
      reposts: [null, 'reposts'],
      replies: [null, 'replies'],
    });
  };

  return oneAtATime((ref, signal) => (ref.type === 'post' ? collectVideo(ref, signal) : collectChannel(ref, signal)));
}

const isResponse = (answer: UpstreamResponse | CollectionOutcome): answer is UpstreamResponse => 'status' in answer;
