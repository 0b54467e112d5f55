import type { PlatformDefinition } from '../types.js';
import { createBlueskyCollector } from './collector.js';
import { blueskyAccount, blueskyPost } from './identifiers.js';

export const bluesky: PlatformDefinition<'bluesky'> = {
  code: 'bluesky',
  identifiers: { account: blueskyAccount, post: blueskyPost },
  realBaseUrl: 'https://public.api.bsky.app',
  // The public AppView is read without an account.
  requiredCredentials: [],
  optionalCredentials: [],
  // Bluesky documents 3000 requests per 5 minutes per IP (600 a minute); each collection is
  // one or two calls, so 240 collections a minute stay well below it.
  budget: { concurrency: 4, perMinute: 240 },
  createCollector: createBlueskyCollector,
};
