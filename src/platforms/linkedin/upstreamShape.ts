// The shape of linkedin's upstream requests, for the security tests (src/platforms/upstreamShape.ts).
import { part, segment, type UpstreamShape } from '../upstreamShape.js';

export const upstreamShape: UpstreamShape = {
  read(path, query) {
    const page = /^\/(company|in)\/([^/]+)\/$/.exec(path);
    return page && query.size === 0 ? [part(page[1]!, segment(page[2]!))] : undefined;
  },
  expected(type, normalized) {
    switch (type) {
      case 'account':
        return [part('in', normalized)];
      case 'organization':
        return [part('company', normalized)];
      default:
        throw new Error(`no upstream shape for linkedin/${type}`);
    }
  },
};
