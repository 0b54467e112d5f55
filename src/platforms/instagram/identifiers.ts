// Instagram usernames (src/platforms/metaGraph/username.ts).
import { instagramUsernameRule } from '../metaGraph/username.js';
import type { IdentifierRule } from '../types.js';

export const instagramAccount: IdentifierRule = {
  ...instagramUsernameRule,
  examples: { valid: 'natgeo', missing: 'missing_user', flaky: 'flaky_user', invalid: ['https://instagram.com/natgeo', 'nat..geo'] },
};
