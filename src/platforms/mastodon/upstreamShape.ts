// The shape of mastodon's upstream requests, for the security tests (src/platforms/upstreamShape.ts):
// `/<host>/api/...`, the host being the one the reference names.
import { part, segment, type UpstreamShape } from '../upstreamShape.js';
import { hostOf, postIdOf, userOf } from '../federated.js';

export const upstreamShape: UpstreamShape = {
  read(path, query) {
    const lookup = /^\/([^/]+)\/api\/v1\/accounts\/lookup$/.exec(path);
    if (lookup) {
      const only = query.size === 1 && query.getAll('acct').length === 1;
      return only ? [part('host', segment(lookup[1]!)), part('acct', query.get('acct')!)] : undefined;
    }
    const status = /^\/([^/]+)\/api\/v1\/statuses\/([^/]+)$/.exec(path);
    if (!status || query.size > 0) return undefined;
    return [part('host', segment(status[1]!)), part('status', segment(status[2]!))];
  },
  expected(type, normalized) {
    switch (type) {
      case 'account':
        return [part('host', hostOf(normalized)), part('acct', userOf(normalized))];
      case 'post':
        return [part('host', hostOf(normalized)), part('status', postIdOf(normalized))];
      default:
        throw new Error(`no upstream shape for mastodon/${type}`);
    }
  },
};
