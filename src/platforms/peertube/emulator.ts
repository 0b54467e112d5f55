// PeerTube's REST API as the emulator speaks it, for any server under /peertube/<host>
// (docs/platforms.md#federated-platforms): accounts, video channels and videos, RFC 7807 errors,
// and its per-address rate limit with Retry-After.
import { cutOffJson, jsonReply as json } from '../emulatorReplies.js';
import type { EmulatedCounts, EmulatedResource, EmulatorReply, PlatformEmulator } from '../emulatorContract.js';

const problem = (status: number, title: string, detail: string) =>
  json(status, { type: 'about:blank', title, detail, status }, { 'content-type': 'application/problem+json; charset=utf-8' });

/** express-rate-limit's answer: 50 calls per 10 s by default, reset in seconds. */
const rateLimitReply = json(
  429,
  { type: 'about:blank', title: 'Too Many Requests', status: 429, detail: 'Too many requests, please try again later.' },
  { 'retry-after': '10', 'ratelimit-limit': '50', 'ratelimit-remaining': '0', 'ratelimit-reset': '10' },
);
const malformedReply = cutOffJson('{"id":');

/** Emulated names starting with `channel` are video channels: no account of that name, a channel instead. */
export const channelPrefix = 'channel';

function answer(resource: EmulatedResource, notFound: string, found: (counts: EmulatedCounts) => unknown): EmulatorReply {
  switch (resource.mode) {
    case 'missing':
      return problem(404, 'Not Found', notFound);
    case 'ratelimit':
      return rateLimitReply;
    case 'malformed':
      return malformedReply;
    case 'normal':
      return json(200, found(resource.counts));
  }
}

const actor = (name: string, host: string, counts: EmulatedCounts) => ({
  id: counts.following + 1,
  name,
  displayName: name,
  url: `https://${host}/${name.startsWith(channelPrefix) ? 'c' : 'a'}/${name}`,
  host,
  hostRedundancyAllowed: false,
  followersCount: counts.followers,
  followingCount: counts.following,
  createdAt: '2021-03-09T10:12:45.000Z',
  avatars: [],
  description: null,
});

export const emulator: PlatformEmulator = {
  handle(request, context) {
    const { host } = request;
    const call = /^\/api\/v1\/(accounts|video-channels|videos)\/([^/]+)$/.exec(request.path);
    if (host === undefined || !call) return undefined;
    const value = decodeURIComponent(call[2]!);
    if (call[1] === 'videos') {
      return answer(context.lookup('post', `${host}:${value}`), 'Video not found', (counts) => ({
        id: counts.following + 1,
        uuid: '9c9de5e8-0a1e-484a-b099-e80766180a6d',
        shortUUID: 'kkGMgK9ZtnKfYAgnEtQxbv',
        url: `https://${host}/videos/watch/${value}`,
        name: 'emulated video',
        isLocal: true,
        duration: 600,
        views: counts.views,
        viewers: 0,
        likes: counts.likes,
        dislikes: Math.floor(counts.likes / 20),
        comments: counts.replies,
        publishedAt: '2025-06-02T14:03:11.908Z',
      }));
    }
    const isChannelName = value.startsWith(channelPrefix);
    // Accounts and channels share a server's names: a channel's name is no account, and the reverse.
    if ((call[1] === 'accounts') === isChannelName)
      return problem(404, 'Not Found', call[1] === 'accounts' ? 'Account not found' : 'Video channel not found');
    return answer(
      context.lookup('account', `${value}@${host}`),
      call[1] === 'accounts' ? 'Account not found' : 'Video channel not found',
      (counts) => actor(value, host, counts),
    );
  },
};
