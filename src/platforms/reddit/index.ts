import type { PlatformDefinition } from '../types.js';
import { createRedditCollector } from './collector.js';
import { redditPost, redditSubreddit, redditUser } from './identifiers.js';

export const reddit: PlatformDefinition<'reddit'> = {
  code: 'reddit',
  // docs/api.md#a-3: a subreddit is a community; a user is an account.
  identifiers: { account: redditUser, community: redditSubreddit, post: redditPost },
  realBaseUrl: 'https://www.reddit.com',
  // The app-only flow reads from oauth.reddit.com; the token comes from www.reddit.com.
  realOrigins: { oauth: 'https://oauth.reddit.com' },
  requiredCredentials: [],
  optionalCredentials: ['REDDIT_CLIENT_ID', 'REDDIT_CLIENT_SECRET'],
  // With both credentials: Reddit allows 100 calls a minute per OAuth client (averaged over ten
  // minutes, X-Ratelimit-* headers); one collection is one call (plus one token call a day).
  budget: { concurrency: 4, perMinute: 90 },
  // Without them: about 10 calls a minute per address for the public JSON.
  anonymousBudget: { concurrency: 1, perMinute: 8 },
  createCollector: createRedditCollector,
};
