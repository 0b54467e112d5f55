// An account with a fresh token, written straight into a data directory no server holds yet:
// for tests about the server, where the CLI's own process would only cost a start.
import { createAccount, issueToken, type AccountSettings } from '../../src/access/provisioning.js';
import { AccountStore } from '../../src/store/accountStore.js';
import { openDatabases } from '../../src/store/environment.js';

/** A paid plan whose rate limit no test reaches. */
export const unlimitedPaid: AccountSettings = { plan: 'paid', rate: { limit: 1_000_000, windowMs: 60_000 } };

export async function provision(
  data: string,
  name: string,
  settings: AccountSettings = unlimitedPaid,
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
