// Threads usernames are the Instagram ones: 1-30 of letters, digits, "." and "_", no
// leading, trailing or double period, case-insensitive (decisions 9). A post is
// `<handle>:<media_id>` (service-spec 2.3), the media id being the Threads API's numeric id.
import type { IdentifierRule } from '../types.js';
import { accountHint, handlePart, lowerCase, lowerHandlePart, postHint, wholeIdentifier } from '../identifiers.js';

// `[^:]*` keeps the double-period lookahead inside the handle of a post identifier.
const username = '(?!\\.)(?![^:]*\\.\\.)[A-Za-z0-9._]{1,30}(?<!\\.)';

export const threadsAccount: IdentifierRule = {
  pattern: new RegExp(`^${username}$`),
  minLength: 1,
  maxLength: 30,
  allowedCharacter: /[A-Za-z0-9._]/,
  syntax: "letters, digits, '.' and '_', without a '.' at either end or two in a row",
  hint: accountHint,
  normalize: lowerCase,
  namePart: wholeIdentifier,
};

export const threadsPost: IdentifierRule = {
  pattern: new RegExp(`^${username}:\\d{1,25}$`),
  minLength: 3,
  maxLength: 56,
  allowedCharacter: /[A-Za-z0-9._:]/,
  syntax: "'<handle>:<media_id>', the media id being digits",
  hint: postHint('<handle>:<media_id>'),
  normalize: lowerHandlePart,
  namePart: handlePart,
};
