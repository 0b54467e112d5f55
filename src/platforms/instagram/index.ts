import type { PlatformDefinition } from '../types.js';
import { createInstagramCollector } from './collector.js';
import { instagramAccount } from './identifiers.js';

export const instagram: PlatformDefinition<'instagram'> = {
  code: 'instagram',
  identifiers: { account: instagramAccount },
  realBaseUrl: 'https://graph.facebook.com',
  // Business discovery runs as the operator's own Instagram professional account.
  requiredCredentials: ['INSTAGRAM_ACCESS_TOKEN', 'INSTAGRAM_BUSINESS_ACCOUNT_ID'],
  optionalCredentials: [],
  // Graph API platform rate limit: 200 calls per hour per app user; 3 a minute stays below it.
  budget: { concurrency: 2, perMinute: 3 },
  createCollector: createInstagramCollector,
};
