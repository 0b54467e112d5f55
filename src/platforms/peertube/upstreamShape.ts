// The shape of peertube's upstream requests, for the security tests (src/platforms/upstreamShape.ts):
// `/<host>/api/v1/accounts|video-channels|videos/<name or id>`, the host being the one the reference names.
import { part, segment, type UpstreamShape } from '../upstreamShape.js';
import { hostOf, postIdOf, userOf } from '../federated.js';

export const upstreamShape: UpstreamShape = {
  read(path, query) {
    const call = /^\/([^/]+)\/api\/v1\/(accounts|video-channels|videos)\/([^/]+)$/.exec(path);
    if (!call || query.size > 0) return undefined;
    return [part('host', segment(call[1]!)), part(call[2] === 'videos' ? 'video' : 'name', segment(call[3]!))];
  },
  expected(type, normalized) {
    const host = part('host', hostOf(normalized));
    switch (type) {
      case 'account':
        return [host, part('name', userOf(normalized))];
      case 'post':
        return [host, part('video', postIdOf(normalized))];
      default:
        throw new Error(`no upstream shape for peertube/${type}`);
    }
  },
};
