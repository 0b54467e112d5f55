// Dashboard passwords (docs/dashboard.md#sign-in): scrypt from node:crypto with a random
// salt per password and the parameters of `webLimits.scrypt`, recorded beside each hash so
// that stronger ones can be introduced without invalidating the old; compared in constant time.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { webLimits } from '../config.js';
import type { PasswordRecord } from '../seams/webRecords/webStore.js';

interface ScryptParameters {
  cost: number;
  blockSize: number;
  parallelization: number;
  keyLength: number;
}

function derive(password: string, salt: Buffer, parameters: ScryptParameters): Promise<Buffer> {
  const { cost, blockSize, parallelization, keyLength } = parameters;
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, { cost, blockSize, parallelization, maxmem: webLimits.scrypt.maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string, now: number): Promise<PasswordRecord> {
  const { cost, blockSize, parallelization, keyLength, saltBytes } = webLimits.scrypt;
  const salt = randomBytes(saltBytes);
  const key = await derive(password, salt, { cost, blockSize, parallelization, keyLength });
  return {
    salt: salt.toString('base64'),
    hash: key.toString('base64'),
    cost,
    blockSize,
    parallelization,
    keyLength,
    setAt: new Date(now).toISOString(),
  };
}

export async function verifyPassword(password: string, record: PasswordRecord): Promise<boolean> {
  const expected = Buffer.from(record.hash, 'base64');
  const key = await derive(password, Buffer.from(record.salt, 'base64'), record);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * Spends the time of one verification for a name that has no password, so that the answer's
 * timing does not tell which accounts exist.
 */
let decoy: Promise<PasswordRecord> | undefined;
export async function verifyAgainstNothing(password: string): Promise<false> {
  decoy ??= hashPassword('a decoy password nobody has', 0);
  await verifyPassword(password, await decoy);
  return false;
}

/** Why a new password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < webLimits.minPasswordLength) return `Choose a password of at least ${webLimits.minPasswordLength} characters.`;
  if (password.length > webLimits.maxPasswordLength) return `Choose a password of at most ${webLimits.maxPasswordLength} characters.`;
  return undefined;
}
