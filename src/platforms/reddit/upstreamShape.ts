// The shape of reddit's upstream requests, for the security tests (src/platforms/upstreamShape.ts).
// Both hosts take the same paths; the token endpoint carries no identifier.
import { onlyParams, part, segment, type UpstreamShape } from '../upstreamShape.js';

export const upstreamShape: UpstreamShape = {
  read(path, query) {
    if (path === '/api/v1/access_token') return query.size === 0 ? [] : undefined;
    const post = /^\/comments\/([^/]+)\.json$/.exec(path);
    if (post) return onlyParams(query, { limit: '1', depth: '1' }, []) ? [part('post', segment(post[1]!))] : undefined;
    if (query.size > 0) return undefined;
    const user = /^\/user\/([^/]+)\/about\.json$/.exec(path);
    if (user) return [part('user', segment(user[1]!))];
    const subreddit = /^\/r\/([^/]+)\/about\.json$/.exec(path);
    return subreddit ? [part('subreddit', segment(subreddit[1]!))] : undefined;
  },
  expected(type, normalized) {
    switch (type) {
      case 'account':
        return [part('user', normalized)];
      case 'community':
        return [part('subreddit', normalized)];
      case 'post':
        return [part('post', normalized)];
      default:
        throw new Error(`no upstream shape for reddit/${type}`);
    }
  },
};
