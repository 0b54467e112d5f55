// Writing a token's last-used time is bookkeeping: when it fails (a full disk), the request
// is still answered and the failure is logged, never an unhandled rejection.
import t from 'tap';
import { Authenticator } from '../../src/access/authenticator.js';
import { createAccount, issueToken } from '../../src/access/provisioning.js';
import { AccountStore } from '../../src/store/accountStore.js';
import { openDatabases } from '../../src/store/environment.js';
import { tempDataDir } from '../helpers/service.js';

t.test('authenticator - a failed last-used write is logged, and the token still authenticates', async (t) => {
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  const accounts = new AccountStore(dbs);
  await createAccount(accounts, 'acme', {}, Date.now());
  const token = await issueToken(accounts, 'acme', Date.now());
  accounts.touchToken = () => Promise.reject(new Error('MDB_MAP_FULL: Environment mapsize limit reached'));
  const warnings: Array<[unknown, string | undefined]> = [];
  const log = { warn: (fields: unknown, message?: string) => void warnings.push([fields, message]) };
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  t.teardown(() => process.off('unhandledRejection', onUnhandled));

  const authenticator = new Authenticator(accounts, log);
  t.teardown(() => authenticator.close());
  const result = authenticator.authenticate(`Bearer ${token.secret}`, Date.now());
  t.equal(result.kind, 'authenticated');
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(warnings.length, 1);
  t.equal(warnings[0]![1], 'token last-used time not written');
  t.match(warnings[0]![0], { token: token.id, err: { message: /MDB_MAP_FULL/ } });
  t.same(unhandled, []);
});
