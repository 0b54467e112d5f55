// The shape of twitch's upstream requests, for the security tests (src/platforms/upstreamShape.ts).
// The user id Helix gives is a lookup result, not an identifier part; the token endpoint carries none.
import { onlyParams, part, postParts, type UpstreamShape } from '../upstreamShape.js';

export const upstreamShape: UpstreamShape = {
  read(path, query) {
    if (path === '/oauth2/token') return query.size === 0 ? [] : undefined;
    if (path === '/helix/users') return onlyParams(query, {}, ['login']) ? [part('login', query.get('login')!)] : undefined;
    if (path === '/helix/channels/followers') return onlyParams(query, { first: '1' }, ['broadcaster_id']) ? [] : undefined;
    if (path === '/helix/videos') return onlyParams(query, {}, ['id']) ? [part('video', query.get('id')!)] : undefined;
    return undefined;
  },
  expected(type, normalized) {
    switch (type) {
      case 'account':
        return [part('login', normalized)];
      case 'post':
        return postParts(normalized, 'login', 'video');
      default:
        throw new Error(`no upstream shape for twitch/${type}`);
    }
  },
};
