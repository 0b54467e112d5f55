import type { PlatformDefinition } from '../types.js';
import { createLinkedinCollector } from './collector.js';
import { linkedinCompany, linkedinProfile } from './identifiers.js';

export const linkedin: PlatformDefinition<'linkedin'> = {
  code: 'linkedin',
  // docs/api.md#a-3: people under /in/ are accounts, companies under /company/ organizations.
  identifiers: { account: linkedinProfile, organization: linkedinCompany },
  realBaseUrl: 'https://www.linkedin.com',
  // Logged-out public pages need no credentials.
  requiredCredentials: [],
  optionalCredentials: [],
  // LinkedIn publishes no limit for public pages and answers automated bursts with status
  // 999; one page at a time, 4 a minute, keeps well under that.
  budget: { concurrency: 1, perMinute: 4 },
  createCollector: createLinkedinCollector,
};
