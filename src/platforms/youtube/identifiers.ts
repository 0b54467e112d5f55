// YouTube's identifiers: channels by id or @handle (docs/api.md#a-8), videos by id (docs/api.md#a-4).
import type { IdentifierRule } from '../types.js';
import { accountHint, keepCase, wholeIdentifier } from '../identifiers.js';

const channelId = /^UC[A-Za-z0-9_-]{22}$/;

export const isChannelId = (normalized: string) => channelId.test(normalized);

/**
 * A channel id is `UC` and 22 URL-safe base64 characters, case-sensitive. A handle is 3-30 letters
 * (of any script), digits, `_`, `-` or `.`, sent with or without the `@` of youtube.com/@handle;
 * handles are case-insensitive and kept as `@handle`. A 24-character handle that also reads as a
 * channel id is a channel id unless sent with its `@`.
 */
export const youtubeChannel: IdentifierRule = {
  pattern: /^(?:UC[A-Za-z0-9_-]{22}|@?[\p{L}\p{M}\p{N}._-]{3,30})$/u,
  minLength: 3,
  maxLength: 31,
  allowedCharacter: /[\p{L}\p{M}\p{N}._@-]/u,
  hint: accountHint,
  syntax: "a channel id, UC and 22 letters A-Z, digits, '_' or '-', or an @handle of 3 to 30 letters, digits, '_', '-' and '.'",
  normalize: (identifier) => (isChannelId(identifier) ? identifier : `@${identifier.replace(/^@/, '').toLowerCase()}`),
  namePart: (normalized) => normalized.replace(/^@/, ''),
  examples: { valid: '@mkbhd', missing: '@missing_channel', flaky: '@flaky_channel', invalid: ['https://www.youtube.com/@mkbhd', '@mk'] },
};

/** A video id is 11 URL-safe base64 characters, case-sensitive, and the whole post identifier. */
export const youtubeVideo: IdentifierRule = {
  pattern: /^[A-Za-z0-9_-]{11}$/,
  minLength: 11,
  maxLength: 11,
  allowedCharacter: /[A-Za-z0-9_-]/,
  hint: 'send the video id only, without a channel name, not the URL',
  syntax: "the 11 letters A-Z, digits, '_' and '-' after v= in its address",
  normalize: keepCase,
  namePart: wholeIdentifier,
  examples: { valid: 'dQw4w9WgXcQ', missing: 'missingvid1', flaky: 'flakyvideo1', invalid: ['https://youtu.be/dQw4w9WgXcQ', 'dQw4w9WgXc'] },
};
