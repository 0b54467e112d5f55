// The shape of x's upstream requests, for the security tests (src/platforms/upstreamShape.ts).
import { list, onlyParams, part, postParts, type UpstreamShape } from '../upstreamShape.js';

export const upstreamShape: UpstreamShape = {
  read(path, query) {
    if (path === '/2/users/by') {
      return onlyParams(query, { 'user.fields': 'public_metrics,verified' }, ['usernames'])
        ? list(query, 'usernames').map((name) => part('user', name))
        : undefined;
    }
    if (path !== '/2/tweets') return undefined;
    return onlyParams(query, { 'tweet.fields': 'author_id,public_metrics' }, ['ids'])
      ? list(query, 'ids').map((id) => part('tweet', id))
      : undefined;
  },
  expected(type, normalized) {
    switch (type) {
      case 'account':
        return [part('user', normalized)];
      case 'post':
        return postParts(normalized, 'user', 'tweet');
      default:
        throw new Error(`no upstream shape for x/${type}`);
    }
  },
};
