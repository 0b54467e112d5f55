// Lemmy's identifiers (docs/platforms.md#federated-platforms): a user is `name@host`, a
// community `name@host` (without the `!` of `!name@host`), both on their home server; a post is
// `host:<id>`, the address https://host/post/<id> reduced (docs/api.md#federated-identifiers).
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
  normalizeHostPost,
  userOf,
  userSyntax,
  usableHost,
} from '../federated.js';

const onServer = {
  pattern: new RegExp(`^${userSyntax}@${hostSyntax}$`, 'u'),
  minLength: 5,
  maxLength: maxUserLength + 1 + maxHostLength,
  allowedCharacter: federatedCharacter,
  refines: usableHost,
  hint: federatedAccountHint,
  normalize: normalizeAccount,
  namePart: userOf,
};

export const lemmyAccount: IdentifierRule = {
  ...onServer,
  syntax:
    "the user as name@server, e.g. dessalines@lemmy.ml, without '@' or 'u/' before it: letters A-Z, digits, '_', '.' and '-', the server its domain name",
  examples: {
    valid: 'dessalines@lemmy.ml',
    missing: 'missing-user@lemmy.ml',
    flaky: 'flaky-user@lemmy.ml',
    invalid: ['https://lemmy.ml/u/dessalines', '@dessalines@lemmy.ml', 'u/dessalines@lemmy.ml', 'dessalines'],
  },
};

export const lemmyCommunity: IdentifierRule = {
  ...onServer,
  syntax:
    "the community as name@server, e.g. technology@lemmy.world, without '!' or 'c/' before it: letters A-Z, digits, '_', '.' and '-', the server its domain name",
  examples: {
    valid: 'technology@lemmy.world',
    missing: 'missing-community@lemmy.world',
    flaky: 'flaky-community@lemmy.world',
    invalid: ['https://lemmy.world/c/technology', '!technology@lemmy.world', 'technology'],
  },
};

/** Post ids are the server's own database ids: decimal numbers. */
export const lemmyPost: IdentifierRule = {
  pattern: new RegExp(`^${hostSyntax}:[0-9]{1,19}$`, 'u'),
  minLength: 5,
  maxLength: maxHostLength + 1 + 19,
  allowedCharacter: federatedCharacter,
  refines: usableHost,
  hint: postHint('<server>:<post_id>'),
  syntax: 'the server and the number after /post/ in the post address https://server/post/<id>, e.g. lemmy.ml:123',
  authorPart: '<server>',
  normalize: normalizeHostPost,
  // The post call names the server and the id: the emulator's conventions look at the server.
  namePart: hostOf,
  examples: {
    valid: 'lemmy.ml:12345678',
    missing: 'missing.lemmy.ml:12345678',
    flaky: 'flaky.lemmy.ml:12345678',
    invalid: ['https://lemmy.ml/post/12345678', 'dessalines@lemmy.ml:12345678', 'lemmy.ml/12345678'],
  },
};
