import type { PlatformDefinition } from '../types.js';
import { createPeertubeCollector } from './collector.js';
import { peertubeAccount, peertubeVideo } from './identifiers.js';

export const peertube: PlatformDefinition<'peertube'> = {
  code: 'peertube',
  identifiers: { account: peertubeAccount, post: peertubeVideo },
  hostsNamedByCallers: true,
  // Public accounts, channels and videos are read without a token.
  requiredCredentials: [],
  optionalCredentials: [],
  // Per server (docs/platforms.md#each-server-its-own-upstream): PeerTube's default API limit is
  // 50 calls per 10 seconds per address (300 a minute); a channel takes two calls, so 120
  // collections a minute stay below it.
  budget: { concurrency: 2, perMinute: 120 },
  createCollector: createPeertubeCollector,
};
