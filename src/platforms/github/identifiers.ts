// GitHub names: logins are 1-39 alphanumerics or hyphens, not starting or ending with a
// hyphen; repository names are up to 100 of [A-Za-z0-9._-] other than "." and "..".
// Both are case-insensitive on GitHub (docs/api.md#a-8).
import type { IdentifierRule } from '../types.js';
import { accountHint, handlePart, lowerCase, postHint } from '../identifiers.js';

const login = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?';
const repository = '(?!\\.{1,2}$)[A-Za-z0-9._-]{1,100}';

export const githubAccount: IdentifierRule = {
  pattern: new RegExp(`^${login}$`),
  minLength: 1,
  maxLength: 39,
  allowedCharacter: /[A-Za-z0-9-]/,
  hint: accountHint,
  syntax: "up to 39 letters A-Z, digits and '-', not starting or ending with '-'",
  normalize: lowerCase,
  namePart: (normalized) => normalized,
  examples: { valid: 'octocat', missing: 'missing-user', flaky: 'flaky-user', invalid: ['https://github.com/octocat', '-octocat'] },
};

export const githubRepository: IdentifierRule = {
  pattern: new RegExp(`^${login}:${repository}$`),
  minLength: 3,
  maxLength: 140,
  allowedCharacter: /[A-Za-z0-9._:-]/,
  hint: postHint('<owner>:<repository>'),
  syntax: "the owner of letters A-Z, digits and '-', the repository of letters A-Z, digits, '.', '_' and '-'",
  authorPart: '<owner>',
  normalize: lowerCase,
  namePart: handlePart,
  examples: {
    valid: 'octocat:hello-world',
    missing: 'missing-user:hello-world',
    flaky: 'flaky-user:hello-world',
    invalid: ['octocat/hello-world', 'octocat:..'],
  },
};
