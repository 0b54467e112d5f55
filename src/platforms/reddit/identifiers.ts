// Reddit's names: usernames are 3-20 letters, digits, '_' and '-'; subreddit names 3-21 letters,
// digits and '_'; a post is the base-36 id after /comments/ in its address. Reddit treats all
// three case-insensitively (docs/api.md#a-8), and none carries its `u/` or `r/` prefix.
import type { IdentifierRule } from '../types.js';
import { lowerCase, wholeIdentifier } from '../identifiers.js';

export const redditUser: IdentifierRule = {
  pattern: /^[A-Za-z0-9_-]{3,20}$/,
  minLength: 3,
  maxLength: 20,
  allowedCharacter: /[A-Za-z0-9_-]/,
  hint: 'send the plain username, without u/, not the URL',
  syntax: "3 to 20 letters A-Z, digits, '_' and '-'",
  normalize: lowerCase,
  namePart: wholeIdentifier,
  examples: {
    valid: 'spez',
    missing: 'missing_user',
    flaky: 'flaky_user',
    invalid: ['u/spez', 'https://www.reddit.com/user/spez/', 'sp'],
  },
};

export const redditSubreddit: IdentifierRule = {
  pattern: /^[A-Za-z0-9_]{3,21}$/,
  minLength: 3,
  maxLength: 21,
  allowedCharacter: /[A-Za-z0-9_]/,
  hint: 'send the plain subreddit name, without r/, not the URL',
  syntax: "3 to 21 letters A-Z, digits and '_'",
  normalize: lowerCase,
  namePart: wholeIdentifier,
  examples: {
    valid: 'announcements',
    missing: 'missing_sub',
    flaky: 'flaky_sub',
    invalid: ['r/announcements', 'https://www.reddit.com/r/announcements/', 'ask-science'],
  },
};

export const redditPost: IdentifierRule = {
  pattern: /^[A-Za-z0-9]{1,13}$/,
  minLength: 1,
  maxLength: 13,
  allowedCharacter: /[A-Za-z0-9]/,
  hint: 'send the post id only, without a subreddit or title, not the URL',
  syntax: 'the base-36 id of letters a-z and digits after /comments/ in its address',
  normalize: lowerCase,
  namePart: wholeIdentifier,
  examples: {
    valid: 'fo7p5b',
    missing: 'missingpost',
    flaky: 'flakypost',
    invalid: ['https://www.reddit.com/r/announcements/comments/fo7p5b/', 't3_fo7p5b', 'announcements:fo7p5b'],
  },
};
