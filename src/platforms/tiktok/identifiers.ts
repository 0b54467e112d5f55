// TikTok usernames (tiktok.com/@<name>): 2-24 of letters, digits, "_" and ".", not ending
// with a period; TikTok treats them case-insensitively (docs/api.md#a-8).
import type { IdentifierRule } from '../types.js';
import { accountHint, lowerCase, wholeIdentifier } from '../identifiers.js';

export const tiktokAccount: IdentifierRule = {
  pattern: /^[A-Za-z0-9._]{1,23}[A-Za-z0-9_]$/,
  minLength: 2,
  maxLength: 24,
  allowedCharacter: /[A-Za-z0-9._]/,
  hint: accountHint,
  syntax: "the name after @ in its address, without the '@': 2 to 24 letters A-Z, digits, '_' and '.', not ending with '.'",
  normalize: lowerCase,
  namePart: wholeIdentifier,
  examples: {
    valid: 'khaby.lame',
    missing: 'missing_user',
    flaky: 'flaky_user',
    invalid: ['https://www.tiktok.com/@khaby.lame', '@khaby.lame'],
  },
};
