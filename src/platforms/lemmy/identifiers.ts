// Lemmy's identifiers (docs/platforms.md#federated-platforms): a user is `name@host`, a
// community `name@host` (without the `!` of `!name@host`), both on their home server; a post is
// `host:<id>`, the address https://host/post/<id> reduced (docs/api.md#federated-identifiers).
import type { IdentifierRule } from '../types.js';
import { federatedAccountRule, hostPostRule } from '../federated.js';

export const lemmyAccount: IdentifierRule = federatedAccountRule({
  syntax:
    "the user as name@server, e.g. dessalines@lemmy.ml, without '@' or 'u/' before it: letters A-Z, digits, '_', '.' and '-', the server its domain name",
  examples: {
    valid: 'dessalines@lemmy.ml',
    missing: 'missing-user@lemmy.ml',
    flaky: 'flaky-user@lemmy.ml',
    invalid: ['https://lemmy.ml/u/dessalines', '@dessalines@lemmy.ml', 'u/dessalines@lemmy.ml', 'dessalines'],
  },
});

export const lemmyCommunity: IdentifierRule = federatedAccountRule({
  syntax:
    "the community as name@server, e.g. technology@lemmy.world, without '!' or 'c/' before it: letters A-Z, digits, '_', '.' and '-', the server its domain name",
  examples: {
    valid: 'technology@lemmy.world',
    missing: 'missing-community@lemmy.world',
    flaky: 'flaky-community@lemmy.world',
    invalid: ['https://lemmy.world/c/technology', '!technology@lemmy.world', 'technology'],
  },
});

/** Post ids are the server's own database ids: decimal numbers. */
export const lemmyPost: IdentifierRule = hostPostRule({
  id: '[0-9]{1,19}',
  maxIdLength: 19,
  idName: 'post_id',
  syntax: 'the server and the number after /post/ in the post address https://server/post/<id>, e.g. lemmy.ml:123',
  examples: {
    valid: 'lemmy.ml:12345678',
    missing: 'missing.lemmy.ml:12345678',
    flaky: 'flaky.lemmy.ml:12345678',
    invalid: ['https://lemmy.ml/post/12345678', 'dessalines@lemmy.ml:12345678', 'lemmy.ml/12345678'],
  },
});
