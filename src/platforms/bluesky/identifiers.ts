// Bluesky's identifiers (atproto handle spec): handles, case-insensitive (docs/api.md#a-8), and
// posts as `<handle>:<record key>` (docs/api.md#a-4).
import type { IdentifierRule } from '../types.js';
import { accountHint, handlePart, lowerCase, lowerHandlePart, postHint } from '../identifiers.js';

const label = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const reservedTld = '(?!(?:alt|arpa|example|internal|invalid|local|localhost|onion)(?:$|:))';
/**
 * A full domain name of at most 253 characters, labels of 1-63 [A-Za-z0-9-] not starting or ending
 * with a hyphen, a last label that starts with a letter, and none of the reserved TLDs.
 */
const handle = `(?=[^:]{1,253}(?:$|:))(?:${label}\\.)+${reservedTld}[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?`;
/** Timestamp identifiers: base32-sortable, the first character limited so the top bit is 0. */
const tid = '[234567a-j][234567a-z]{12}';

export const blueskyAccount: IdentifierRule = {
  pattern: new RegExp(`^${handle}$`),
  minLength: 3,
  maxLength: 253,
  allowedCharacter: /[A-Za-z0-9.-]/,
  hint: accountHint,
  syntax: "the full handle, e.g. alice.bsky.social: labels of letters A-Z, digits and '-' joined by '.'",
  normalize: lowerCase,
  namePart: (normalized) => normalized,
  examples: {
    valid: 'alice.bsky.social',
    missing: 'missing.bsky.social',
    flaky: 'flaky.bsky.social',
    invalid: ['https://bsky.app/profile/alice.bsky.social', 'alice'],
  },
};

/** The key is the 13-character TID of the post address bsky.app/profile/<handle>/post/<tid>. */
export const blueskyPost: IdentifierRule = {
  pattern: new RegExp(`^${handle}:${tid}$`),
  minLength: 17,
  maxLength: 253 + 1 + 13,
  allowedCharacter: /[A-Za-z0-9.:-]/,
  hint: postHint('<handle>:<post_id>'),
  syntax: 'the handle with its full domain, e.g. alice.bsky.social, and the post id of 13 characters after /post/ in its address',
  authorPart: '<handle>',
  normalize: lowerHandlePart,
  namePart: handlePart,
  examples: {
    valid: 'alice.bsky.social:3jwdwj2ctlk26',
    missing: 'missing.bsky.social:3jwdwj2ctlk26',
    flaky: 'flaky.bsky.social:3jwdwj2ctlk26',
    invalid: ['https://bsky.app/profile/alice.bsky.social/post/3jwdwj2ctlk26', 'alice.bsky.social/3jwdwj2ctlk26'],
  },
};
