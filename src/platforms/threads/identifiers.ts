// Threads' identifiers: usernames are Instagram's (src/platforms/metaGraph/username.ts); a post is
// named by its page's code or its API media id, two resources (docs/platforms.md#threads).
import { instagramUsername, instagramUsernameRule } from '../metaGraph/username.js';
import type { IdentifierRule } from '../types.js';
import { handlePart, idPart, lowerHandlePart, postHint } from '../identifiers.js';

export const threadsAccount: IdentifierRule = {
  ...instagramUsernameRule,
  examples: { valid: 'mosseri', missing: 'missing_user', flaky: 'flaky_user', invalid: ['https://www.threads.net/@zuck', '@zuck'] },
};

/**
 * `<handle>:<code>`, the code users copy from threads.net/@<handle>/post/<code> (letters, digits,
 * `_` and `-`, case-sensitive), or `<handle>:<media_id>`, the Threads API's numeric id. The two
 * name the same post in id spaces that cannot be converted into each other.
 */
export const threadsPost: IdentifierRule = {
  pattern: new RegExp(`^${instagramUsername}:(?:\\d{1,25}|[A-Za-z0-9_-]{1,40})$`),
  minLength: 3,
  maxLength: 71,
  allowedCharacter: /[A-Za-z0-9._:-]/,
  hint: postHint('<handle>:<code>'),
  syntax: "the handle without '@', and the code after /post/ in its address or the numeric media id",
  authorPart: '<handle>',
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
