// Facebook page usernames (facebook.com/<username>): at least 5 of A-Z, 0-9 and ".",
// starting and ending with a letter or digit; a numeric page id fits the same syntax.
// Facebook treats usernames case-insensitively (docs/api.md#a-8).
import type { IdentifierRule } from '../types.js';
import { accountHint, lowerCase, wholeIdentifier } from '../identifiers.js';

export const facebookPage: IdentifierRule = {
  pattern: /^[A-Za-z0-9][A-Za-z0-9.]{3,48}[A-Za-z0-9]$/,
  minLength: 5,
  maxLength: 50,
  allowedCharacter: /[A-Za-z0-9.]/,
  hint: accountHint,
  syntax: "5 to 50 letters A-Z, digits and '.', starting and ending with a letter or digit",
  normalize: lowerCase,
  namePart: wholeIdentifier,
  examples: { valid: 'nasagov', missing: 'missing.page', flaky: 'flaky.page', invalid: ['https://facebook.com/nasagov', 'nasa'] },
};
