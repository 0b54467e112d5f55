// Twitch as the emulator speaks it: Helix's users, channel followers and videos, its error
// object and Ratelimit-* headers, and the identity host's client-credentials token endpoint,
// all under the one `/twitch` prefix.
import { cutOffJson, jsonReply as json } from '../emulatorReplies.js';
import type { EmulatedResource, EmulatorContext, EmulatorReply, PlatformEmulator } from '../emulatorContract.js';
import { emulatorCredential } from '../upstreamShape.js';

/** Helix's bucket for an app token: 800 points a minute, one point a call. */
const pointsPerMinute = 800;

/** The one token the emulated endpoint issues, for the documented lifetime of about 58 days. */
const appToken = 'emulatedtwitchapptoken';
const tokenSeconds = 5_011_271;

/**
 * Emulated user ids carry their login (its UTF-8 bytes as one decimal number), so a followers
 * call, which names only the id, finds its channel's counts without state.
 */
const userIdOf = (login: string) => BigInt(`0x${Buffer.from(login, 'utf8').toString('hex')}`).toString();
const loginOf = (id: string) => (/^[0-9]{1,80}$/.test(id) ? Buffer.from(BigInt(id).toString(16), 'hex').toString('utf8') : '');

/**
 * Every emulated video belongs to this channel, whatever its id: a video named under another
 * login is one of someone else's, which the collector answers as not found.
 */
export const emulatedVideoOwner = 'twitchdev';

const problem = (status: number, error: string, message: string, headers?: Record<string, string>) =>
  json(status, { error, status, message }, headers);

function rateHeaders(now: number, remaining: number): Record<string, string> {
  return {
    'ratelimit-limit': String(pointsPerMinute),
    'ratelimit-remaining': String(remaining),
    'ratelimit-reset': String(Math.floor(now / 60_000) * 60 + 60),
  };
}

function answer(resource: EmulatedResource, context: EmulatorContext, missing: () => EmulatorReply, found: () => unknown): EmulatorReply {
  switch (resource.mode) {
    case 'missing':
      return missing();
    case 'ratelimit':
      return problem(429, 'Too Many Requests', 'Too Many Requests', rateHeaders(context.now, 0));
    case 'malformed':
      return cutOffJson('{"data":[{"id":"');
    case 'normal':
      return json(200, found(), rateHeaders(context.now, pointsPerMinute - 1));
  }
}

export const emulator: PlatformEmulator = {
  handle(request, context) {
    if (request.headers.authorization !== `Bearer ${appToken}` || request.headers['client-id'] !== emulatorCredential)
      return problem(401, 'Unauthorized', 'Invalid OAuth token');
    const { path, query } = request;
    if (path === '/helix/users') {
      const login = query.get('login') ?? '';
      return answer(
        context.lookup('account', login),
        context,
        () => json(200, { data: [] }),
        () => ({ data: [{ id: userIdOf(login), login, display_name: login, type: '', broadcaster_type: 'partner', view_count: 0 }] }),
      );
    }
    if (path === '/helix/channels/followers') {
      const login = loginOf(query.get('broadcaster_id') ?? '');
      const channel = context.lookup('account', login);
      return answer(
        channel,
        context,
        () => problem(400, 'Bad Request', 'invalid broadcaster id'),
        () => ({ total: channel.counts.followers, data: [], pagination: {} }),
      );
    }
    if (path === '/helix/videos') {
      const id = query.get('id') ?? '';
      const video = context.lookup('post', `${emulatedVideoOwner}:${id}`);
      return answer(
        video,
        context,
        () => problem(404, 'Not Found', 'vods not found'),
        () => ({
          data: [
            {
              id,
              user_id: userIdOf(emulatedVideoOwner),
              user_login: emulatedVideoOwner,
              viewable: 'public',
              view_count: video.counts.views,
              type: 'archive',
            },
          ],
          pagination: {},
        }),
      );
    }
    return undefined;
  },

  post(request) {
    if (request.path !== '/oauth2/token') return undefined;
    const form = new URLSearchParams(request.body);
    if (form.get('grant_type') !== 'client_credentials') return json(400, { status: 400, message: 'unsupported grant type' });
    if (form.get('client_id') !== emulatorCredential || form.get('client_secret') !== emulatorCredential)
      return json(403, { status: 403, message: 'invalid client secret' });
    return json(200, { access_token: appToken, expires_in: tokenSeconds, token_type: 'bearer' });
  },
};
