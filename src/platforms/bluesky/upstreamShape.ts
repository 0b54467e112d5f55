// The shape of bluesky's upstream requests, for the security tests (src/platforms/upstreamShape.ts).
import { part, postParts, type UpstreamShape } from '../upstreamShape.js';
const atUri = /^at:\/\/did:[a-z]+:[A-Za-z0-9._:%-]+\/app\.bsky\.feed\.post\/(.+)$/;

export const upstreamShape: UpstreamShape = {
  read(path, query) {
    const only = (name: string) => query.size > 0 && [...query.keys()].every((key) => key === name);
    if (path === '/xrpc/app.bsky.actor.getProfiles')
      return only('actors') ? query.getAll('actors').map((handle) => part('actor', handle)) : undefined;
    if (path !== '/xrpc/app.bsky.feed.getPosts' || !only('uris')) return undefined;
    const keys = query.getAll('uris').map((uri) => atUri.exec(uri)?.[1]);
    return keys.every((key) => key !== undefined) ? keys.map((key) => part('post', key)) : undefined;
  },
  expected(type, normalized) {
    switch (type) {
      case 'account':
        return [part('actor', normalized)];
      case 'post':
        return postParts(normalized, 'actor', 'post');
      default:
        throw new Error(`no upstream shape for bluesky/${type}`);
    }
  },
};
