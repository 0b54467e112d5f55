// The shape of github's upstream requests, for the security tests (src/platforms/upstreamShape.ts).
import { part, segment, type UpstreamShape } from '../upstreamShape.js';

export const upstreamShape: UpstreamShape = {
  read(path, query) {
    if (query.size > 0) return undefined;
    const user = /^\/users\/([^/]+)$/.exec(path);
    if (user) return [part('user', segment(user[1]!))];
    const repo = /^\/repos\/([^/]+)\/([^/]+)$/.exec(path);
    return repo ? [part('repo', `${segment(repo[1]!)}:${segment(repo[2]!)}`)] : undefined;
  },
  expected(type, normalized) {
    switch (type) {
      case 'account':
        return [part('user', normalized)];
      case 'post':
        return [part('repo', normalized)];
      default:
        throw new Error(`no upstream shape for github/${type}`);
    }
  },
};
