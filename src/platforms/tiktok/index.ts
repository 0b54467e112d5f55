import type { PlatformDefinition } from '../types.js';
import { createTiktokCollector } from './collector.js';
import { tiktokAccount } from './identifiers.js';

export const tiktok: PlatformDefinition<'tiktok'> = {
  code: 'tiktok',
  identifiers: { account: tiktokAccount },
  realBaseUrl: 'https://www.tiktok.com',
  // Public profile pages need no credentials.
  requiredCredentials: [],
  optionalCredentials: [],
  // TikTok documents no limit for its public pages and answers bursts with 429s and verify
  // walls; one page every 6 seconds, one at a time, stays clear of them.
  budget: { concurrency: 1, perMinute: 10 },
  createCollector: createTiktokCollector,
};
