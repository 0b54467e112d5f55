import type { PlatformDefinition } from '../types.js';
import { createXCollector } from './collector.js';
import { xAccount, xPost } from './identifiers.js';

export const x: PlatformDefinition<'x'> = {
  code: 'x',
  identifiers: { account: xAccount, post: xPost },
  realBaseUrl: 'https://api.x.com',
  // Every v2 call needs the bearer token of an X developer app (app-only auth).
  requiredCredentials: ['X_BEARER_TOKEN'],
  optionalCredentials: [],
  // Per app, GET /2/users/by allows 300 requests per 15 minutes (20 a minute) and GET
  // /2/tweets 3,500; every collection makes one users/by call, so 15 a minute stays below.
  // Lower access tiers allow far less: lower this for them.
  budget: { concurrency: 2, perMinute: 15 },
  createCollector: createXCollector,
};
