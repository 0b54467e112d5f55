// Instagram usernames, which Threads accounts share (a Threads profile is an Instagram
// account): 1-30 of letters, digits, "." and "_", not starting or ending with a period and
// without two in a row; case-insensitive (docs/api.md#a-8).
import { accountHint, lowerCase, wholeIdentifier } from '../identifiers.js';
import type { IdentifierRule } from '../types.js';

/** The pattern source; `[^:]*` keeps the double-period lookahead inside the handle of a `<handle>:<id>` post. */
export const instagramUsername = '(?!\\.)(?![^:]*\\.\\.)[A-Za-z0-9._]{1,30}(?<!\\.)';

/** An account rule of Instagram usernames, but for its examples. */
export const instagramUsernameRule: Omit<IdentifierRule, 'examples'> = {
  pattern: new RegExp(`^${instagramUsername}$`),
  minLength: 1,
  maxLength: 30,
  allowedCharacter: /[A-Za-z0-9._]/,
  hint: accountHint,
  syntax: "without '@': up to 30 letters A-Z, digits, '.' and '_', without a '.' at either end or two in a row",
  normalize: lowerCase,
  namePart: wholeIdentifier,
};
