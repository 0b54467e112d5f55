// The shape of tiktok's upstream requests, for the security tests (src/platforms/upstreamShape.ts).
import { part, segment, type UpstreamShape } from '../upstreamShape.js';

export const upstreamShape: UpstreamShape = {
  read(path, query) {
    const user = /^\/@([^/]+)$/.exec(path);
    return user && query.size === 0 ? [part('user', segment(user[1]!))] : undefined;
  },
  expected(type, normalized) {
    switch (type) {
      case 'account':
        return [part('user', normalized)];
      default:
        throw new Error(`no upstream shape for tiktok/${type}`);
    }
  },
};
