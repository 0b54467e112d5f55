// Dashboard passwords (docs/dashboard.md#sign-in): scrypt with a random salt per password and the
// parameters of `webLimits.scrypt`, recorded beside each hash so that stronger ones can be introduced
// without invalidating the old; compared in constant time. Every hash runs on the node's password
// hasher, never on libuv's pool (docs/dashboard.md#password-hashing).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { webLimits } from '../config.js';
import type { PasswordRecord } from '../seams/webRecords/webStore.js';
import type { PasswordHashing } from './passwordHasher.js';

export async function hashPassword(hasher: PasswordHashing, password: string, now: number): Promise<PasswordRecord> {
  const { cost, blockSize, parallelization, keyLength, saltBytes } = webLimits.scrypt;
  const salt = randomBytes(saltBytes).toString('base64');
  const hash = await hasher.derive({ password, salt, cost, blockSize, parallelization, keyLength });
  return { salt, hash, cost, blockSize, parallelization, keyLength, setAt: new Date(now).toISOString() };
}

export async function verifyPassword(hasher: PasswordHashing, password: string, record: PasswordRecord): Promise<boolean> {
  const { salt, cost, blockSize, parallelization, keyLength } = record;
  const key = Buffer.from(await hasher.derive({ password, salt, cost, blockSize, parallelization, keyLength }), 'base64');
  const expected = Buffer.from(record.hash, 'base64');
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * A record no password matches, with today's parameters: checking a name that has no password
 * against it costs one hash, as a wrong password does, so the answer's timing does not tell which
 * accounts exist.
 */
const decoy: PasswordRecord = (() => {
  const { cost, blockSize, parallelization, keyLength, saltBytes } = webLimits.scrypt;
  const salt = randomBytes(saltBytes).toString('base64');
  return { salt, hash: randomBytes(keyLength).toString('base64'), cost, blockSize, parallelization, keyLength, setAt: '' };
})();

export async function verifyAgainstNothing(hasher: PasswordHashing, password: string): Promise<false> {
  await verifyPassword(hasher, password, decoy);
  return false;
}

/** Why a new password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < webLimits.minPasswordLength) return `Choose a password of at least ${webLimits.minPasswordLength} characters.`;
  if (password.length > webLimits.maxPasswordLength) return `Choose a password of at most ${webLimits.maxPasswordLength} characters.`;
  return undefined;
}
