// Invites (docs/dashboard.md#sign-in): a one-time secret, valid `webLimits.inviteMs` and stored as
// its digest, that lets its holder set the account's password.
import { webLimits } from '../config.js';
import type { WebRecords, WebStore } from '../seams/webRecords/webStore.js';
import type { PasswordHashing } from './passwordHasher.js';
import { hashPassword } from './passwords.js';
import { digestSecret, newSecret } from './secrets.js';

export const invitePath = '/dashboard/invite';

/** A new invite for `account`; its secret is returned once. */
export async function createInvite(
  records: Pick<WebRecords, 'addInvite'>,
  account: string,
  now: number,
): Promise<{ secret: string; expiresAt: number }> {
  const secret = newSecret();
  const expiresAt = now + webLimits.inviteMs;
  await records.addInvite(digestSecret(secret), { account, expiresAt });
  return { secret, expiresAt };
}

/**
 * The secret travels in the link's fragment, which browsers never send to a server, so no access
 * log or proxy sees it; the page's script posts it with the new password.
 */
export function inviteLink(baseUrl: string, secret: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${invitePath}#${secret}`;
}

/** The account whose invite of `secret` is still open at `now`, without taking it. */
export function openInvite(store: WebStore, secret: string, now: number): string | undefined {
  store.refresh();
  const invite = store.invite(digestSecret(secret));
  return invite && invite.expiresAt > now ? invite.account : undefined;
}

/**
 * Sets the password of the invite's account, takes the invite and ends the account's sessions; the
 * account, or undefined when the invite is unknown, used or expired.
 */
export async function redeemInvite(
  store: WebStore,
  records: WebRecords,
  hasher: PasswordHashing,
  secret: string,
  password: string,
  now: number,
): Promise<string | undefined> {
  const account = openInvite(store, secret, now);
  if (account === undefined) return undefined;
  return records.redeemInvite(digestSecret(secret), now, await hashPassword(hasher, password, now));
}
