// The Instagram Graph API's business discovery as the emulator speaks it: the same path and
// `fields` expression, the discovered account's counts, and the Graph's own error answers
// (110/2207013 for an unknown username, code 4 when throttled, 104 without a token).
import type { PlatformEmulator } from '../emulatorContract.js';
import { graphErrorReply, graphJson, graphMalformedReply, graphMissingTokenReply, graphRateLimitReply } from '../metaGraph/replies.js';

const ownAccountPath = /^\/v\d+\.\d+\/([^/]+)$/;
const discoveryField = /^business_discovery\.username\(([^)]*)\)\{([a-z_,]*)\}$/;

const unknownUserReply = (username: string) =>
  graphErrorReply(400, {
    message: 'Invalid user id',
    type: 'OAuthException',
    code: 110,
    error_subcode: 2207013,
    error_user_title: 'Cannot find User',
    error_user_msg: `The user with username: ${username} cannot be found.`,
  });

export const emulator: PlatformEmulator = {
  handle(request, context) {
    const path = ownAccountPath.exec(request.path);
    if (!path) return undefined;
    if (!request.query.get('access_token')) return graphMissingTokenReply;
    const field = discoveryField.exec(request.query.get('fields') ?? '');
    if (!field)
      return graphErrorReply(400, { message: '(#100) Tried accessing nonexisting field (fields)', type: 'OAuthException', code: 100 });
    const username = field[1]!;
    const resource = context.lookup('account', username);
    switch (resource.mode) {
      case 'missing':
        return unknownUserReply(username);
      case 'ratelimit':
        return graphRateLimitReply(path[1]!, 'instagram');
      case 'malformed':
        return graphMalformedReply;
      case 'normal': {
        const { counts } = resource;
        const discovered: Record<string, unknown> = {
          username,
          followers_count: counts.followers,
          follows_count: counts.following,
          media_count: counts.posts,
        };
        const requested = field[2]!.split(',');
        const answer = Object.fromEntries(Object.entries(discovered).filter(([name]) => requested.includes(name)));
        return graphJson(200, { business_discovery: { ...answer, id: String(17_841_400_000_000_000 + counts.following) }, id: path[1] });
      }
    }
  },
};
