// LinkedIn's public addresses (docs/api.md#a-3): companies under /company/<name>/ (organization),
// people under /in/<name>/ (account), both matched case-insensitively (docs/api.md#a-8).
import type { IdentifierRule } from '../types.js';
import { accountHint, lowerCase, wholeIdentifier } from '../identifiers.js';

/**
 * Company names and numeric ids are 1-100 of letters, digits, "-" and "_"; older pages also keep
 * "." and "&" from the company's name (/company/booking.com/, /company/johnson-&-johnson/). None
 * starts or ends with a separator.
 */
export const linkedinCompany: IdentifierRule = {
  pattern: /^[A-Za-z0-9](?:[A-Za-z0-9_.&-]{0,98}[A-Za-z0-9])?$/,
  minLength: 1,
  maxLength: 100,
  allowedCharacter: /[A-Za-z0-9_.&-]/,
  hint: accountHint,
  syntax: "the name after /company/ in its address: letters A-Z, digits, '-', '_', '.' and '&', starting and ending with a letter or digit",
  normalize: lowerCase,
  namePart: wholeIdentifier,
  examples: {
    valid: 'microsoft',
    missing: 'missing-company',
    flaky: 'flaky-company',
    invalid: ['https://www.linkedin.com/company/microsoft/', 'company/microsoft'],
  },
};

/**
 * Personal custom URLs are 3-100 of letters, digits and "-", not starting or ending with "-"
 * (LinkedIn help, "Manage your public profile URL").
 */
export const linkedinProfile: IdentifierRule = {
  pattern: /^[A-Za-z0-9][A-Za-z0-9-]{1,98}[A-Za-z0-9]$/,
  minLength: 3,
  maxLength: 100,
  allowedCharacter: /[A-Za-z0-9-]/,
  hint: accountHint,
  syntax: "the name after /in/ in its address: 3 to 100 letters A-Z, digits and '-', starting and ending with a letter or digit",
  normalize: lowerCase,
  namePart: wholeIdentifier,
  examples: {
    valid: 'satya-nadella',
    missing: 'missing-person',
    flaky: 'flaky-person',
    invalid: ['https://www.linkedin.com/in/satya-nadella/', 'in/satya-nadella'],
  },
};
