// Threads usernames are the Instagram ones: 1-30 of letters, digits, "." and "_", no
// leading, trailing or double period, case-insensitive (docs/api.md#a-8). A post is
// `<handle>:<code>`, the code users copy from threads.net/@<handle>/post/<code> (letters,
// digits, `_` and `-`, case-sensitive), or `<handle>:<media_id>`, the Threads API's numeric
// id. The two forms name the same post in two id spaces that cannot be converted into each
// other, so they are two resources (docs/platforms.md, "threads").
import type { IdentifierRule } from '../types.js';
import { accountHint, handlePart, idPart, lowerCase, lowerHandlePart, postHint, wholeIdentifier } from '../identifiers.js';

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
  examples: { valid: 'mosseri', missing: 'missing_user', flaky: 'flaky_user', invalid: ['https://www.threads.net/@zuck', '@zuck'] },
};

export const threadsPost: IdentifierRule = {
  pattern: new RegExp(`^${username}:(?:\\d{1,25}|[A-Za-z0-9_-]{1,40})$`),
  minLength: 3,
  maxLength: 71,
  allowedCharacter: /[A-Za-z0-9._:-]/,
  syntax: "'<handle>:<code>' (the code in the post's threads.net address) or '<handle>:<media_id>' (digits)",
  hint: postHint('<handle>:<code>'),
  normalize: lowerHandlePart,
  namePart: handlePart,
  examples: {
    valid: 'zuck:C8ZqKpYt7xY',
    missing: 'missing_user:C8ZqKpYt7xY',
    flaky: 'flaky_user:C8ZqKpYt7xY',
    invalid: ['https://www.threads.net/@zuck/post/C8ZqKpYt7xY', 'zuck/post/C8ZqKpYt7xY'],
  },
};

/** A numeric post id is the API's media id; anything else is the code of the public post URL. */
export const isMediaId = (normalized: string) => /^\d+$/.test(idPart(normalized));
