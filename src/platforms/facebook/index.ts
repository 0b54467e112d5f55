import type { PlatformDefinition } from '../types.js';
import { createFacebookCollector } from './collector.js';
import { facebookPage } from './identifiers.js';

export const facebook: PlatformDefinition<'facebook'> = {
  code: 'facebook',
  identifiers: { account: facebookPage },
  realBaseUrl: 'https://graph.facebook.com',
  // An app or page access token with Page Public Metadata Access.
  requiredCredentials: ['FACEBOOK_ACCESS_TOKEN'],
  optionalCredentials: [],
  // Platform rate limit for app tokens: 200 calls per hour per app user; 3 a minute stays
  // below it, and each call carries up to 50 pages.
  budget: { concurrency: 2, perMinute: 3 },
  createCollector: createFacebookCollector,
};
