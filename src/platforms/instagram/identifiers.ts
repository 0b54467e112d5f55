// Instagram usernames: 1-30 of letters, digits, "." and "_", not starting or ending with a
// period and without two periods in a row; Instagram treats them case-insensitively (docs/api.md#a-8).
import type { IdentifierRule } from '../types.js';
import { accountHint, lowerCase, wholeIdentifier } from '../identifiers.js';

export const instagramAccount: IdentifierRule = {
  pattern: /^(?!\.)(?!.*\.\.)[A-Za-z0-9._]{1,30}(?<!\.)$/,
  minLength: 1,
  maxLength: 30,
  allowedCharacter: /[A-Za-z0-9._]/,
  syntax: "letters, digits, '.' and '_', without a '.' at either end or two in a row",
  hint: accountHint,
  normalize: lowerCase,
  namePart: wholeIdentifier,
  examples: { valid: 'natgeo', missing: 'missing_user', flaky: 'flaky_user', invalid: ['https://instagram.com/natgeo', 'nat..geo'] },
};
