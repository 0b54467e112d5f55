// The shape of facebook's upstream requests, for the security tests (src/platforms/upstreamShape.ts).
import { emulatorCredential, list, onlyParams, part, segment, type UpstreamShape } from '../upstreamShape.js';

export const upstreamShape: UpstreamShape = {
  read(path, query) {
    const fixed = { fields: 'fan_count', access_token: emulatorCredential };
    if (path === '/v23.0/') return onlyParams(query, fixed, ['ids']) ? list(query, 'ids').map((id) => part('page', id)) : undefined;
    const page = /^\/v23\.0\/([^/]+)$/.exec(path);
    return page && onlyParams(query, fixed, []) ? [part('page', segment(page[1]!))] : undefined;
  },
  expected(type, normalized) {
    switch (type) {
      case 'account':
        return [part('page', normalized)];
      default:
        throw new Error(`no upstream shape for facebook/${type}`);
    }
  },
};
