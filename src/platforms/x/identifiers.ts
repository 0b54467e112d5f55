// X names: a username is 1-15 of [A-Za-z0-9_], case-insensitive (docs/api.md#a-8). A post is
// `<username>:<id>`, the numeric id of x.com/<username>/status/<id> (docs/api.md#a-4); ids
// are 64-bit snowflakes: at most 19 digits, no leading zero.
import type { IdentifierRule } from '../types.js';
import { accountHint, handlePart, lowerCase, lowerHandlePart, postHint } from '../identifiers.js';

const username = '[A-Za-z0-9_]{1,15}';

export const xAccount: IdentifierRule = {
  pattern: new RegExp(`^${username}$`),
  minLength: 1,
  maxLength: 15,
  allowedCharacter: /[A-Za-z0-9_]/,
  hint: accountHint,
  syntax: "without '@': up to 15 letters A-Z, digits and '_'",
  normalize: lowerCase,
  namePart: (normalized) => normalized,
  examples: { valid: 'xdevelopers', missing: 'missing_user', flaky: 'flaky_user', invalid: ['https://x.com/XDevelopers', '@XDevelopers'] },
};

export const xPost: IdentifierRule = {
  pattern: new RegExp(`^${username}:[1-9][0-9]{0,18}$`),
  minLength: 3,
  maxLength: 15 + 1 + 19,
  allowedCharacter: /[A-Za-z0-9_:]/,
  hint: postHint('<handle>:<post_id>'),
  syntax: "the username without '@', and the post id, the number after /status/ in its address",
  authorPart: '<handle>',
  normalize: lowerHandlePart,
  namePart: handlePart,
  examples: {
    valid: 'xdevelopers:1460323737035677698',
    missing: 'missing_user:1460323737035677698',
    flaky: 'flaky_user:1460323737035677698',
    invalid: ['https://x.com/XDevelopers/status/1460323737035677698', '1460323737035677698'],
  },
};

/** Snowflake ids carry their creation time: milliseconds since the X epoch in the bits above 22. */
const xEpochMs = 1288834974657n;
export const snowflakeTime = (id: string): number => Number((BigInt(id) >> 22n) + xEpochMs);

/** X counts views (impressions) for posts created from December 2022 on (docs/api.md#a-14). */
export const viewCountingSince = Date.UTC(2022, 11, 1);
