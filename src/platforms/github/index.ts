import type { PlatformDefinition } from '../types.js';
import { createGithubCollector } from './collector.js';
import { githubAccount, githubRepository } from './identifiers.js';

export const github: PlatformDefinition<'github'> = {
  code: 'github',
  // docs/api.md#a-3: repositories are github's posts.
  identifiers: { account: githubAccount, post: githubRepository },
  realBaseUrl: 'https://api.github.com',
  requiredCredentials: [],
  // Without a token GitHub allows 60 requests an hour, with one 5,000.
  optionalCredentials: ['GITHUB_TOKEN'],
  budget: { concurrency: 4, perMinute: 80 },
  createCollector: createGithubCollector,
};
