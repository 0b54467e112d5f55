import type { PlatformDefinition } from '../types.js';
import { createLemmyCollector } from './collector.js';
import { lemmyAccount, lemmyCommunity, lemmyPost } from './identifiers.js';

export const lemmy: PlatformDefinition<'lemmy'> = {
  code: 'lemmy',
  identifiers: { account: lemmyAccount, community: lemmyCommunity, post: lemmyPost },
  hostsNamedByCallers: true,
  // Public users, communities and posts are read without a token.
  requiredCredentials: [],
  optionalCredentials: [],
  // Per server (docs/platforms.md#each-server-its-own-upstream): Lemmy's default limit for API
  // reads is 180 calls a minute per address (its `message` rate limit), which each server may lower;
  // one or two calls per collection, 40 a minute stay below it with room for a lowered limit.
  budget: { concurrency: 2, perMinute: 40 },
  createCollector: createLemmyCollector,
};
