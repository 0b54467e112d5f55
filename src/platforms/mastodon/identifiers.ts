// Mastodon's identifiers (docs/platforms.md#federated-platforms): an account is `user@host`, its
// home server named (docs/api.md#federated-identifiers); a post is `user@host:<id>`, the address
// https://host/@user/<id> reduced as the other platforms' posts are (docs/api.md#a-4).
import type { IdentifierRule } from '../types.js';
import { postHint } from '../identifiers.js';
import {
  federatedAccountHint,
  federatedCharacter,
  hostOf,
  hostSyntax,
  maxHostLength,
  maxUserLength,
  normalizeAccount,
  normalizeAccountPost,
  userOf,
  userSyntax,
  usableHost,
} from '../federated.js';

/**
 * Mastodon's status ids are decimal snowflakes (64-bit, up to 19 digits; the oldest are small
 * numbers); GoToSocial's are 26-character ULIDs in Crockford's base32, upper case.
 */
const postId = '(?:[0-9]{1,19}|[0-9A-HJKMNP-TV-Z]{26})';

export const mastodonAccount: IdentifierRule = {
  pattern: new RegExp(`^${userSyntax}@${hostSyntax}$`, 'u'),
  minLength: 5,
  maxLength: maxUserLength + 1 + maxHostLength,
  allowedCharacter: federatedCharacter,
  refines: usableHost,
  hint: federatedAccountHint,
  syntax:
    "the account as user@server, e.g. Gargron@mastodon.social, without a leading '@': the user of letters A-Z, digits, '_', '.' and '-', the server its domain name",
  normalize: normalizeAccount,
  namePart: userOf,
  examples: {
    valid: 'Gargron@mastodon.social',
    missing: 'missing-user@mastodon.social',
    flaky: 'flaky-user@mastodon.social',
    invalid: [
      'https://mastodon.social/@Gargron',
      '@Gargron@mastodon.social',
      'Gargron',
      'Gargron@127.0.0.1',
      'Gargron@mastodon.social:443',
    ],
  },
};

export const mastodonPost: IdentifierRule = {
  pattern: new RegExp(`^${userSyntax}@${hostSyntax}:${postId}$`, 'u'),
  minLength: 7,
  maxLength: maxUserLength + 1 + maxHostLength + 1 + 26,
  allowedCharacter: federatedCharacter,
  refines: usableHost,
  hint: postHint('<user>@<server>:<post_id>'),
  syntax:
    'the author as user@server and the id after the last / of the post address https://server/@user/<id>: digits on Mastodon, 26 letters and digits on GoToSocial',
  authorPart: '<user>@<server>',
  normalize: normalizeAccountPost,
  // The status call names the server and the id, not the author: the emulator's conventions look at the server.
  namePart: hostOf,
  examples: {
    valid: 'Gargron@mastodon.social:109372843234245678',
    missing: 'Gargron@missing.mastodon.social:109372843234245678',
    flaky: 'Gargron@flaky.mastodon.social:109372843234245678',
    invalid: [
      'https://mastodon.social/@Gargron/109372843234245678',
      'mastodon.social:109372843234245678',
      'Gargron@mastodon.social/109372843234245678',
    ],
  },
};
