// YouTube (docs/platforms.md#youtube): Data API v3 channels.list and videos.list with
// part=statistics, 1 quota unit a call; what a list leaves out is in docs/platforms.md#youtube-lists.
import Type, { type Static, type TSchema } from 'typebox';
import { failed, notFound, rateLimited, type CollectionOutcome, type ResourceRef } from '../../model.js';
import type { UpstreamResponse } from '../http.js';
import type { Collector, CollectorContext } from '../types.js';
import { entryOf, isOutcome, type BatchAnswer } from '../lookups.js';
import { reportedCounts } from '../reported.js';
import { jsonBody, retryAtOf, settle, unparsable } from '../upstream.js';

const countOf = (text: string | undefined) => (text === undefined ? undefined : Number(text));
import { isChannelId } from './identifiers.js';
import { nextPacificMidnight } from './quota.js';

/** channels.list and videos.list take at most 50 ids. */
export const maxIdsPerRequest = 50;

/** Counts arrive as decimal strings (unsigned long in JSON); any may be left out. */
const count = Type.Optional(Type.String({ pattern: '^[0-9]+$' }));
const channelSchema = Type.Object({
  id: Type.String(),
  statistics: Type.Object({
    subscriberCount: count,
    hiddenSubscriberCount: Type.Optional(Type.Boolean()),
    videoCount: count,
  }),
});
// likeCount is left out when the owner hides likes, commentCount when comments are off.
const videoSchema = Type.Object({
  id: Type.String(),
  statistics: Type.Object({ viewCount: count, likeCount: count, commentCount: count }),
});
/**
 * An id in `items` is found, with or without `pageInfo` (Google's own examples leave it
 * out). Only a list that counts its results (`pageInfo.totalResults`) says that an id it
 * leaves out does not exist (docs/platforms.md#youtube-lists).
 */
const listOf = <T extends TSchema>(item: T) =>
  jsonBody(
    Type.Object({
      pageInfo: Type.Optional(Type.Object({ totalResults: Type.Integer({ minimum: 0 }) })),
      items: Type.Optional(Type.Array(item)),
    }),
  );
const channelsBody = listOf(channelSchema);
const videosBody = listOf(videoSchema);
const errorBody = jsonBody(
  Type.Object({
    error: Type.Object({ errors: Type.Array(Type.Object({ reason: Type.String() })) }),
  }),
);

type Channel = Static<typeof channelSchema>;
type Video = Static<typeof videoSchema>;

/** What an id left out of a list without `pageInfo` stands for: nothing is known of it. */
const uncounted = failed('upstream list does not count its results, so an id it leaves out is not known to be missing');

/** A list's items and what an id it leaves out means; undefined for a list that holds nothing it can stand by. */
interface ListItems<T> {
  items: T[];
  absent: CollectionOutcome;
}

function listItems<T>(
  list: { pageInfo?: { totalResults: number } | undefined; items?: T[] | undefined } | undefined,
): ListItems<T> | undefined {
  if (!list) return undefined;
  if (list.pageInfo === undefined) return list.items === undefined ? undefined : { items: list.items, absent: uncounted };
  if (list.items === undefined) return list.pageInfo.totalResults === 0 ? { items: [], absent: notFound } : undefined;
  return { items: list.items, absent: notFound };
}

/** One list call's answer, and the outcome of an id it leaves out. */
interface ListAnswer<T> {
  answer: BatchAnswer<T>;
  absent: CollectionOutcome;
}

export function createYoutubeCollector(context: CollectorContext): Collector {
  // The key goes in a header, not the `key` query parameter, so it never shows in a logged URL.
  const headers = { accept: 'application/json', 'x-goog-api-key': context.credentials.YOUTUBE_API_KEY ?? '' };

  // Google errors are `{"error": {"code", "message", "errors": [{"reason", ...}]}}`. An
  // exhausted daily quota (403 quotaExceeded) lasts until the next Pacific midnight; a
  // short-term limit (403 rateLimitExceeded, or 429) until the usual pause.
  const refusal = (response: UpstreamResponse): CollectionOutcome => {
    const reason = errorBody.parse(response.body)?.error.errors[0]?.reason;
    if (reason === 'quotaExceeded' || reason === 'dailyLimitExceeded') return rateLimited(nextPacificMidnight(context.now()));
    if (response.status === 429 || reason === 'rateLimitExceeded' || reason === 'userRateLimitExceeded')
      return rateLimited(retryAtOf(response, context.now()));
    // The documented 404s (channelNotFound, videoNotFound) mean none of the requested ids exists.
    if (response.status === 404 && (reason === 'channelNotFound' || reason === 'videoNotFound')) return notFound;
    return failed(`unexpected upstream status ${response.status}${reason ? ` (${reason})` : ''}`);
  };

  /**
   * One list call (https://developers.google.com/youtube/v3/docs/channels/list, .../videos/list):
   * channel ids (up to 50) share one channels call, each handle needs its own (`forHandle` takes
   * one), and video ids (up to 50) share one videos call.
   */
  const call = async <T>(
    resource: 'channels' | 'videos',
    filter: Record<string, string>,
    signal: AbortSignal,
    read: (body: string) => ListItems<T> | undefined,
    keyOf: (item: T) => string,
  ): Promise<ListAnswer<T>> => {
    const query = new URLSearchParams({ part: 'statistics', ...filter });
    const response = await context.http.get(`${context.baseUrl}/${resource}?${query}`, headers, signal);
    if (response.status !== 200) return { answer: { refused: refusal(response) }, absent: notFound };
    const list = read(response.body);
    if (!list) return { answer: { refused: unparsable }, absent: notFound };
    return { answer: { byKey: new Map(list.items.map((item) => [keyOf(item), item])) }, absent: list.absent };
  };
  const byId = (item: { id: string }) => item.id;
  const readChannels = (body: string) => listItems(channelsBody.parse(body));
  const readVideos = (body: string) => listItems(videosBody.parse(body));

  const channelOutcome = ({ answer, absent }: ListAnswer<Channel>, key: string): CollectionOutcome => {
    const channel = entryOf(answer, key, absent);
    if (isOutcome(channel)) return channel;
    const { subscriberCount, hiddenSubscriberCount, videoCount } = channel.statistics;
    return reportedCounts({
      // A hidden subscriber count is not reported (docs/api.md#a-14).
      followers: [hiddenSubscriberCount ? null : countOf(subscriberCount), 'subscribers'],
      following: [null, 'following'],
      posts: [countOf(videoCount), 'videos'],
    });
  };

  const videoOutcome = ({ answer, absent }: ListAnswer<Video>, id: string): CollectionOutcome => {
    const video = entryOf(answer, id, absent);
    if (isOutcome(video)) return video;
    const { viewCount, likeCount, commentCount } = video.statistics;
    return reportedCounts({
      views: [countOf(viewCount), 'views'],
      likes: [countOf(likeCount), 'likes'],
      // YouTube has no reposts (docs/api.md#a-14).
      reposts: [null, 'reposts'],
      replies: [countOf(commentCount), 'comments'],
    });
  };

  return {
    maxBatch: maxIdsPerRequest,
    async collect(refs, signal) {
      if (refs.length === 0) return [];
      const ids = (wanted: (ref: ResourceRef) => boolean) => [...new Set(refs.filter(wanted).map((ref) => ref.identifier))];
      const channelIds = ids((ref) => ref.type === 'account' && isChannelId(ref.identifier));
      const videoIds = ids((ref) => ref.type === 'post');
      // Started only when some ref needs it; a throw becomes `failed` for each ref awaiting it.
      const channels = channelIds.length > 0 ? call('channels', { id: channelIds.join(',') }, signal, readChannels, byId) : undefined;
      const videos = videoIds.length > 0 ? call('videos', { id: videoIds.join(',') }, signal, readVideos, byId) : undefined;
      const byHandle = new Map(
        ids((ref) => ref.type === 'account' && !isChannelId(ref.identifier)).map((handle) => [
          handle,
          call('channels', { forHandle: handle }, signal, readChannels, () => handle),
        ]),
      );
      return Promise.all(
        refs.map((ref) =>
          settle(async () => {
            if (ref.type === 'post') return videoOutcome(await videos!, ref.identifier);
            if (isChannelId(ref.identifier)) {
              const answer = await channels!;
              return channelOutcome(answer, ref.identifier);
            }
            const answer = await byHandle.get(ref.identifier)!;
            return channelOutcome(answer, ref.identifier);
          }),
        ),
      );
    },
  };
}
