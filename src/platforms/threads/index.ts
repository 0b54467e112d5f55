import type { PlatformDefinition } from '../types.js';
import { createThreadsCollector } from './collector.js';
import { isMediaId, threadsAccount, threadsPost } from './identifiers.js';

export const threads: PlatformDefinition<'threads'> = {
  code: 'threads',
  // docs/api.md#a-3: threads accepts accounts and posts.
  identifiers: { account: threadsAccount, post: threadsPost },
  realBaseUrl: 'https://graph.threads.net',
  // Posts named by their code are read from their public page.
  realOrigins: { page: 'https://www.threads.net' },
  // A user token with threads_basic, threads_profile_discovery and threads_manage_insights.
  requiredCredentials: ['THREADS_ACCESS_TOKEN'],
  // A post named by its code is read from its public page, without a token.
  credentialScope: { needing: 'accounts and posts named by media id', needs: (ref) => ref.type !== 'post' || isMediaId(ref.identifier) },
  optionalCredentials: [],
  // Threads API rate limit: 4,800 calls x the token user's impressions per rolling 24 h,
  // so at least 4,800 a day. A post by media id costs two API calls, a post by code one page
  // of www.threads.net (no published limit): 1.6 collections a minute is 2,304 a day, at most
  // 4,608 API calls even if every one is a post by media id.
  budget: { concurrency: 2, perMinute: 1.6 },
  createCollector: createThreadsCollector,
};
