// An account with a fresh token in a data directory no server holds yet.
import { createAccount, issueToken } from '../../src/access/provisioning.js';
import { AccountStore } from '../../src/store/accountStore.js';
import { openDatabases } from '../../src/store/environment.js';

export async function provisionToken(data: string, name: string): Promise<string> {
  const dbs = openDatabases(data);
  try {
    const accounts = new AccountStore(dbs);
    await createAccount(accounts, name, { plan: 'paid', rate: { limit: 1_000_000, windowMs: 60_000 } }, Date.now());
    return (await issueToken(accounts, name, Date.now())).secret;
  } finally {
    await dbs.root.close();
  }
}
