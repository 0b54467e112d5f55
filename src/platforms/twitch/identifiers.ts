// Twitch's names: a login is up to 25 letters, digits and '_', not starting with '_'; a video is
// the number after /videos/ in its address, named under its channel as `<login>:<video_id>`
// (docs/api.md#a-7) so that a video of another channel is not counted. Logins are
// case-insensitive (docs/api.md#a-8).
import type { IdentifierRule } from '../types.js';
import { accountHint, handlePart, lowerCase, postHint, wholeIdentifier } from '../identifiers.js';

const login = '[A-Za-z0-9][A-Za-z0-9_]{0,24}';

export const twitchChannel: IdentifierRule = {
  pattern: new RegExp(`^${login}$`),
  minLength: 1,
  maxLength: 25,
  allowedCharacter: /[A-Za-z0-9_]/,
  hint: accountHint,
  syntax: "the login in its address: up to 25 letters A-Z, digits and '_', not starting with '_'",
  normalize: lowerCase,
  namePart: wholeIdentifier,
  examples: {
    valid: 'twitchdev',
    missing: 'missing_channel',
    flaky: 'flaky_channel',
    invalid: ['https://www.twitch.tv/twitchdev', '_twitchdev'],
  },
};

export const twitchVideo: IdentifierRule = {
  pattern: new RegExp(`^${login}:[0-9]{1,20}$`),
  minLength: 3,
  maxLength: 46,
  allowedCharacter: /[A-Za-z0-9_:]/,
  hint: postHint('<login>:<video_id>'),
  syntax: 'the channel login, and the number after /videos/ in its address',
  authorPart: '<login>',
  normalize: lowerCase,
  namePart: handlePart,
  examples: {
    valid: 'twitchdev:335921245',
    missing: 'missing_channel:335921245',
    flaky: 'flaky_channel:335921245',
    invalid: ['https://www.twitch.tv/videos/335921245', '335921245', 'twitchdev:v335921245'],
  },
};
