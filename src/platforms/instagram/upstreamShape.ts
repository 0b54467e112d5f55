// The shape of instagram's upstream requests, for the security tests (src/platforms/upstreamShape.ts).
import { emulatorCredential, onlyParams, part, type UpstreamShape } from '../upstreamShape.js';
const discoveryFields = /^business_discovery\.username\((.*)\)\{followers_count,follows_count,media_count\}$/;

export const upstreamShape: UpstreamShape = {
  read(path, query) {
    if (path !== `/v23.0/${emulatorCredential}` || !onlyParams(query, { access_token: emulatorCredential }, ['fields'])) return undefined;
    const username = discoveryFields.exec(query.get('fields')!);
    return username ? [part('account', username[1]!)] : undefined;
  },
  expected(type, normalized) {
    switch (type) {
      case 'account':
        return [part('account', normalized)];
      default:
        throw new Error(`no upstream shape for instagram/${type}`);
    }
  },
};
