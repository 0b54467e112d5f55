// Secrets of the dashboard (session ids, invite secrets, CSRF tokens): 256 random bits,
// URL-safe; sessions and invites are stored only under the SHA-256 digest of theirs.
import { randomBytes } from 'node:crypto';
import { digestToken } from '../auth/tokens.js';

export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export const digestSecret = digestToken;
