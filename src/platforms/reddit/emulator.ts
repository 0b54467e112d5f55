// Reddit as the emulator speaks it: the about.json of users and subreddits, a post's
// /comments/{id}.json, the app-only token endpoint, Reddit's refusals and its X-Ratelimit-*
// headers. Both hosts (www and oauth) live under the one `/reddit` prefix.
import { cutOffJson, jsonReply as json } from '../emulatorReplies.js';
import type { EmulatedCounts, EmulatedResource, EmulatorContext, EmulatorReply, PlatformEmulator } from '../emulatorContract.js';
import { emulatorCredential } from '../upstreamShape.js';

/** Reddit's windows are ten minutes: 1,000 calls with an app token, 100 without (10 a minute). */
const windowSeconds = 600;
const callsPerWindow = { oauth: 1_000, anonymous: 100 };

/** The one token the emulated token endpoint issues, valid for Reddit's usual day. */
const appToken = 'emulated-reddit-app-token';
const tokenSeconds = 86_400;

function rateHeaders(now: number, limit: number, used: number): Record<string, string> {
  const reset = windowSeconds - (Math.floor(now / 1000) % windowSeconds);
  return { 'x-ratelimit-used': String(used), 'x-ratelimit-remaining': `${limit - used}.0`, 'x-ratelimit-reset': String(reset) };
}

const notFoundBody = { message: 'Not Found', error: 404 };

/** `missing` is the not-found answer of each kind: a 404, or the redirect Reddit sends for a subreddit it never had. */
function answer(
  resource: EmulatedResource,
  context: EmulatorContext,
  limit: number,
  missing: () => EmulatorReply,
  found: (counts: EmulatedCounts) => unknown,
): EmulatorReply {
  switch (resource.mode) {
    case 'missing':
      return missing();
    case 'ratelimit':
      return json(429, { message: 'Too Many Requests', error: 429 }, rateHeaders(context.now, limit, limit));
    case 'malformed':
      return cutOffJson('{"kind": "t2", "data": {"subreddit": {"subscri');
    case 'normal':
      return json(200, found(resource.counts), rateHeaders(context.now, limit, 1));
  }
}

/** Which limit a request falls under, or a 401 for a bearer token the endpoint never issued. */
function callerLimit(authorization: string | undefined): number | EmulatorReply {
  if (authorization === undefined) return callsPerWindow.anonymous;
  return authorization === `bearer ${appToken}` ? callsPerWindow.oauth : json(401, { message: 'Unauthorized', error: 401 });
}

export const emulator: PlatformEmulator = {
  handle(request, context) {
    const limit = callerLimit(request.headers.authorization);
    if (typeof limit !== 'number') return limit;
    const user = /^\/user\/([^/]+)\/about\.json$/.exec(request.path);
    if (user) {
      const name = decodeURIComponent(user[1]!);
      return answer(
        context.lookup('account', name),
        context,
        limit,
        () => json(404, notFoundBody),
        (counts) => ({
          kind: 't2',
          data: {
            name,
            is_employee: false,
            verified: counts.verified,
            link_karma: counts.likes,
            comment_karma: counts.reposts,
            total_karma: counts.likes + counts.reposts,
            subreddit: { display_name: `u_${name}`, subreddit_type: 'user', subscribers: counts.followers, url: `/user/${name}/` },
          },
        }),
      );
    }
    const subreddit = /^\/r\/([^/]+)\/about\.json$/.exec(request.path);
    if (subreddit) {
      const name = decodeURIComponent(subreddit[1]!);
      return answer(
        context.lookup('community', name),
        context,
        limit,
        () => ({ status: 302, headers: { location: `/subreddits/search.json?q=${encodeURIComponent(name)}` }, body: '' }),
        (counts) => ({
          kind: 't5',
          data: {
            display_name: name,
            display_name_prefixed: `r/${name}`,
            subreddit_type: 'public',
            subscribers: counts.followers,
            active_user_count: counts.following,
            url: `/r/${name}/`,
          },
        }),
      );
    }
    const post = /^\/comments\/([^/]+)\.json$/.exec(request.path);
    if (post) {
      const id = decodeURIComponent(post[1]!);
      return answer(
        context.lookup('post', id),
        context,
        limit,
        () => json(404, notFoundBody),
        (counts) => [
          {
            kind: 'Listing',
            data: {
              children: [
                {
                  kind: 't3',
                  data: {
                    id,
                    name: `t3_${id}`,
                    score: counts.likes,
                    ups: counts.likes,
                    upvote_ratio: 0.9,
                    num_comments: counts.replies,
                    num_crossposts: counts.reposts,
                    view_count: null,
                  },
                },
              ],
            },
          },
          { kind: 'Listing', data: { children: [] } },
        ],
      );
    }
    return undefined;
  },

  // The client-credentials grant: HTTP Basic with the client id and secret, which the emulated
  // collectors are given as `emulator` each.
  post(request) {
    if (request.path !== '/api/v1/access_token') return undefined;
    const basic = `Basic ${Buffer.from(`${emulatorCredential}:${emulatorCredential}`).toString('base64')}`;
    const grant = new URLSearchParams(request.body).get('grant_type');
    if (request.headers.authorization !== basic) return json(401, { message: 'Unauthorized', error: 401 });
    if (grant !== 'client_credentials') return json(200, { error: 'unsupported_grant_type' });
    return json(200, { access_token: appToken, token_type: 'bearer', expires_in: tokenSeconds, scope: '*' });
  },
};
