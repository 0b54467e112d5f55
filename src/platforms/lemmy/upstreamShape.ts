// The shape of lemmy's upstream requests, for the security tests (src/platforms/upstreamShape.ts):
// `/<host>/api/v3|v4/<method>?<one parameter>`, the host being the one the reference names.
import { part, segment, type UpstreamShape } from '../upstreamShape.js';
import { hostOf, postIdOf, userOf } from '../federated.js';

const parameterOf: Record<string, string> = { user: 'username', person: 'username', community: 'name', post: 'id' };

export const upstreamShape: UpstreamShape = {
  read(path, query) {
    const call = /^\/([^/]+)\/api\/v[34]\/(user|person|community|post)$/.exec(path);
    const parameter = call && parameterOf[call[2]!]!;
    if (!call || !parameter || query.size !== 1 || query.getAll(parameter).length !== 1) return undefined;
    return [part('host', segment(call[1]!)), part(call[2] === 'post' ? 'post' : 'name', query.get(parameter)!)];
  },
  expected(type, normalized) {
    const host = part('host', hostOf(normalized));
    switch (type) {
      case 'account':
      case 'community':
        return [host, part('name', userOf(normalized))];
      case 'post':
        return [host, part('post', postIdOf(normalized))];
      default:
        throw new Error(`no upstream shape for lemmy/${type}`);
    }
  },
};
