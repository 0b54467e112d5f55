import type { PlatformDefinition } from '../types.js';
import { createMastodonCollector } from './collector.js';
import { mastodonAccount, mastodonPost } from './identifiers.js';

export const mastodon: PlatformDefinition<'mastodon'> = {
  code: 'mastodon',
  identifiers: { account: mastodonAccount, post: mastodonPost },
  hostsNamedByCallers: true,
  // Public accounts and statuses are read without a token.
  requiredCredentials: [],
  optionalCredentials: [],
  // Per server (docs/platforms.md#each-server-its-own-upstream): Mastodon allows 300 calls per 5
  // minutes per address (60 a minute) on each server (docs.joinmastodon.org/api/rate-limits);
  // one call per collection, 50 a minute stay below it.
  budget: { concurrency: 2, perMinute: 50 },
  createCollector: createMastodonCollector,
};
