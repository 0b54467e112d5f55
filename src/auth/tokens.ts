// Token secrets: a recognisable prefix, 192 random bits, stored only as a SHA-256 digest.
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { tokenDisplay } from '../config.js';

const tokenPrefix = 'dp_';

export function generateToken(): { secret: string; id: string; digest: string; shown: string } {
  const secret = tokenPrefix + randomBytes(24).toString('base64url');
  return { secret, id: `tok_${randomBytes(6).toString('hex')}`, digest: digestToken(secret), shown: shownPart(secret) };
}

/** The part of a secret that may be shown again: its fixed prefix and a few random characters. */
export function shownPart(secret: string): string {
  return secret.slice(0, tokenDisplay.shownChars);
}

/** Why a token's note is refused (one line of at most `tokenDisplay.maxNoteLength` characters), or undefined. */
export function tokenNoteProblem(note: string): string | undefined {
  if (note.length > tokenDisplay.maxNoteLength || /\p{Cc}/u.test(note))
    return `give one line of at most ${tokenDisplay.maxNoteLength} characters`;
  return undefined;
}

/** Whether a command-line argument is a secret rather than a token id. */
export function looksLikeSecret(text: string): boolean {
  return text.startsWith(tokenPrefix);
}

/** Every authenticated request digests its token: the one-shot hash is ~3x a Hash object's cost. */
export function digestToken(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** Compares digests in constant time; the lookup by digest already hides the secret. */
export function digestsEqual(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

export type BearerCredentials = { kind: 'none' } | { kind: 'token'; secret: string };

/**
 * RFC 6750 section 2.1: `Authorization: Bearer <token>`. The scheme is case-insensitive
 * (RFC 7235 2.1). Any other scheme, or an empty token, counts as no bearer credentials.
 */
export function parseAuthorization(header: string): BearerCredentials {
  const space = header.indexOf(' ');
  if (space < 0 || header.slice(0, space).toLowerCase() !== 'bearer') return { kind: 'none' };
  const secret = header.slice(space + 1).trim();
  return secret === '' ? { kind: 'none' } : { kind: 'token', secret };
}
