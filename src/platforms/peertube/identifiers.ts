// PeerTube's identifiers (docs/platforms.md#federated-platforms): an account or video channel is
// `name@host` on its home server; a video is `host:<id>`, the address https://host/w/<id>
// reduced (docs/api.md#federated-identifiers).
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

/** A video's numeric id, its UUID (lower-case hex), or its 22-character short UUID (base58, as /w/ addresses carry). */
const videoId = '(?:[0-9]{1,10}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[1-9A-HJ-NP-Za-km-z]{22})';

export const peertubeAccount: IdentifierRule = {
  pattern: new RegExp(`^${userSyntax}@${hostSyntax}$`, 'u'),
  minLength: 5,
  maxLength: maxUserLength + 1 + maxHostLength,
  allowedCharacter: federatedCharacter,
  refines: usableHost,
  hint: federatedAccountHint,
  syntax:
    "an account or video channel as name@server, e.g. framasoft@framatube.org, without '@' before it: letters A-Z, digits, '_', '.' and '-', the server its domain name",
  normalize: normalizeAccount,
  namePart: userOf,
  examples: {
    valid: 'framasoft@framatube.org',
    missing: 'missing-account@framatube.org',
    flaky: 'flaky-account@framatube.org',
    invalid: ['https://framatube.org/a/framasoft', '@framasoft@framatube.org', 'framasoft'],
  },
};

export const peertubeVideo: IdentifierRule = {
  pattern: new RegExp(`^${hostSyntax}:${videoId}$`, 'u'),
  minLength: 5,
  maxLength: maxHostLength + 1 + 36,
  allowedCharacter: federatedCharacter,
  refines: usableHost,
  hint: postHint('<server>:<video_id>'),
  syntax:
    'the server and the id after /w/ in the video address https://server/w/<id>: 22 letters and digits, a UUID in lower case, or a number',
  authorPart: '<server>',
  normalize: normalizeHostPost,
  // The video call names the server and the id: the emulator's conventions look at the server.
  namePart: hostOf,
  examples: {
    valid: 'framatube.org:9c9de5e8-0a1e-484a-b099-e80766180a6d',
    missing: 'missing.framatube.org:kkGMgK9ZtnKfYAgnEtQxbv',
    flaky: 'flaky.framatube.org:kkGMgK9ZtnKfYAgnEtQxbv',
    invalid: [
      'https://framatube.org/w/kkGMgK9ZtnKfYAgnEtQxbv',
      'framasoft@framatube.org:kkGMgK9ZtnKfYAgnEtQxbv',
      'framatube.org:kkGMgK9Ztn',
    ],
  },
};
