// The shape of youtube's upstream requests, for the security tests (src/platforms/upstreamShape.ts).
import { list, onlyParams, part, type UpstreamShape } from '../upstreamShape.js';
import { isChannelId } from './identifiers.js';

export const upstreamShape: UpstreamShape = {
  read(path, query) {
    if (path === '/videos')
      return onlyParams(query, { part: 'statistics' }, ['id']) ? list(query, 'id').map((id) => part('video', id)) : undefined;
    if (path !== '/channels') return undefined;
    if (onlyParams(query, { part: 'statistics' }, ['id'])) return list(query, 'id').map((id) => part('channel', id));
    return onlyParams(query, { part: 'statistics' }, ['forHandle']) ? [part('handle', query.get('forHandle')!)] : undefined;
  },
  expected(type, normalized) {
    switch (type) {
      case 'account':
        return [part(isChannelId(normalized) ? 'channel' : 'handle', normalized)];
      case 'post':
        return [part('video', normalized)];
      default:
        throw new Error(`no upstream shape for youtube/${type}`);
    }
  },
};
