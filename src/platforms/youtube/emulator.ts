// The YouTube Data API v3 as the emulator speaks it (docs/platforms.md#the-emulator): channels and
// videos with the same parameters, list bodies and Google error bodies as www.googleapis.com/youtube/v3.
import { createHash } from 'node:crypto';
import { cutOffJson, jsonReply } from '../emulatorReplies.js';
import type { EmulatedResource, EmulatorContext, EmulatorReply, EmulatorRequest, PlatformEmulator } from '../emulatorContract.js';
import { isChannelId } from './identifiers.js';

const json = (status: number, body: unknown) => jsonReply(status, body, { 'content-type': 'application/json; charset=UTF-8' });

const googleError = (code: number, message: string, reason: string, domain = 'global', status?: string) =>
  json(code, { error: { code, message, errors: [{ message, domain, reason }], ...(status ? { status } : {}) } });

const quotaMessage =
  'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.';
// YouTube's only throttling answer: it sends no rate-limit headers.
const quotaExceeded = googleError(403, quotaMessage, 'quotaExceeded', 'youtube.quota');

const malformedReply = cutOffJson('{"kind":"youtube#channelListResponse","items":[{"statistics":');

/** An etag-shaped token, stable per answer content. */
const etagOf = (seed: string) => createHash('sha256').update(seed).digest('base64url').slice(0, 27);

/** YouTube shows subscriber counts rounded down to three significant figures: so do `rounded*` channels. */
function threeSignificantFigures(value: number): number {
  const scale = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(value, 1))) - 2);
  return Math.floor(value / scale) * scale;
}

/** A whole answer is refused when any resource in it is rate limited or malformed. */
function refusal(resources: readonly EmulatedResource[]): EmulatorReply | undefined {
  if (resources.some((resource) => resource.mode === 'ratelimit')) return quotaExceeded;
  if (resources.some((resource) => resource.mode === 'malformed')) return malformedReply;
  return undefined;
}

function listResponse(kind: string, items: readonly object[], keepEmptyItems: boolean) {
  const seed = `${kind}/${JSON.stringify(items)}`;
  return json(200, {
    kind: `youtube#${kind}ListResponse`,
    etag: etagOf(seed),
    pageInfo: { totalResults: items.length, resultsPerPage: items.length },
    // channels.list leaves `items` out when nothing matched; videos.list sends an empty list.
    ...(items.length > 0 || keepEmptyItems ? { items } : {}),
  });
}

function channels(request: EmulatorRequest, context: EmulatorContext): EmulatorReply {
  const handle = request.query.get('forHandle');
  const ids = request.query.get('id');
  if (handle === null && ids === null) {
    return googleError(
      400,
      'No filter selected. Expected one of: forHandle, forUsername, id, managedByMe, mine, mySubscribers',
      'missingRequiredParameter',
    );
  }
  const looked =
    handle !== null
      ? [
          {
            id: `UC${etagOf(`channel/${handle.replace(/^@/, '').toLowerCase()}`).slice(0, 22)}`,
            resource: context.lookup('account', `@${handle.replace(/^@/, '')}`),
          },
        ]
      : ids!
          .split(',')
          .filter(isChannelId)
          .map((id) => ({ id, resource: context.lookup('account', id) }));
  const refused = refusal(looked.map(({ resource }) => resource));
  if (refused) return refused;
  const items = looked
    .filter(({ resource }) => resource.mode === 'normal')
    .map(({ id, resource: { counts, rounded } }) => ({
      kind: 'youtube#channel',
      etag: etagOf(`channel/${id}`),
      id,
      statistics: {
        viewCount: String(counts.views),
        subscriberCount: String(rounded ? threeSignificantFigures(counts.followers) : counts.followers),
        hiddenSubscriberCount: false,
        videoCount: String(counts.posts),
      },
    }));
  return listResponse('channel', items, false);
}

function videos(request: EmulatorRequest, context: EmulatorContext): EmulatorReply {
  const ids = request.query.get('id');
  if (ids === null) return googleError(400, 'No filter selected. Expected one of: chart, id, myRating', 'missingRequiredParameter');
  const looked = ids.split(',').map((id) => ({ id, resource: context.lookup('post', id) }));
  const refused = refusal(looked.map(({ resource }) => resource));
  if (refused) return refused;
  const items = looked
    .filter(({ resource }) => resource.mode === 'normal')
    .map(({ id, resource: { counts } }) => ({
      kind: 'youtube#video',
      etag: etagOf(`video/${id}`),
      id,
      statistics: {
        viewCount: String(counts.views),
        likeCount: String(counts.likes),
        favoriteCount: '0',
        commentCount: String(counts.replies),
      },
    }));
  return listResponse('video', items, true);
}

/** Takes part, id, forHandle, and the API key as `key` or x-goog-api-key. */
export const emulator: PlatformEmulator = {
  handle(request, context) {
    if (request.path !== '/channels' && request.path !== '/videos') return undefined;
    if (!request.query.get('key') && !request.headers['x-goog-api-key']) {
      return googleError(
        403,
        "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
        'forbidden',
        'global',
        'PERMISSION_DENIED',
      );
    }
    if (!request.query.get('part')) return googleError(400, 'Required parameter: part', 'required');
    return request.path === '/channels' ? channels(request, context) : videos(request, context);
  },
};
