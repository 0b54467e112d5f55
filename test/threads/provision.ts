// An account with a fresh token in a data directory no server holds yet.
import { type AccountSettings, createAccount, issueToken } from '../../src/access/provisioning.js';
import { AccountStore } from '../../src/store/accountStore.js';
import { openDatabases } from '../../src/store/environment.js';

/** A paid account whose rate limit no test reaches. */
export const unlimitedAccount: AccountSettings = { plan: 'paid', rate: { limit: 1_000_000, windowMs: 60_000 } };

/** Creates the account and issues it a token; the token's id and its secret. */
export async function provision(
  data: string,
  name: string,
  settings: AccountSettings = unlimitedAccount,
): Promise<{ id: string; secret: string }> {
  const dbs = openDatabases(data);
  try {
    const accounts = new AccountStore(dbs);
    await createAccount(accounts, name, settings, Date.now());
    return await issueToken(accounts, name, Date.now());
  } finally {
    await dbs.root.close();
  }
}

export async function provisionToken(data: string, name: string): Promise<string> {
  return (await provision(data, name)).secret;
}
