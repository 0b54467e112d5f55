// The shape of threads's upstream requests, for the security tests (src/platforms/upstreamShape.ts).
import { emulatorCredential, onlyParams, part, postParts, segment, type UpstreamShape } from '../upstreamShape.js';

export const upstreamShape: UpstreamShape = {
  read(path, query) {
    const page = /^\/@([^/]+)\/post\/([^/]+)$/.exec(path);
    if (page) return query.size === 0 ? [part('page', `${segment(page[1]!)}:${segment(page[2]!)}`)] : undefined;
    if (path === '/v1.0/profile_lookup') {
      return onlyParams(query, { fields: 'follower_count', access_token: emulatorCredential }, ['username'])
        ? [part('user', query.get('username')!)]
        : undefined;
    }
    const media = /^\/v1\.0\/([^/]+)\/insights$/.exec(path);
    return media && onlyParams(query, { metric: 'likes,reposts', access_token: emulatorCredential }, [])
      ? [part('media', segment(media[1]!))]
      : undefined;
  },
  expected(type, normalized) {
    switch (type) {
      case 'account':
        return [part('user', normalized)];
      case 'post':
        return /:\d+$/.test(normalized) ? postParts(normalized, 'user', 'media') : [part('page', normalized)];
      default:
        throw new Error(`no upstream shape for threads/${type}`);
    }
  },
};
