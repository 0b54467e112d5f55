// Writing a token's last-used time is bookkeeping: when it fails (a full disk), the request
// is still answered and the failure is logged, never an unhandled rejection.
import t, { type Test } from 'tap';
import { Authenticator, tokenBookkeeping } from '../../src/access/authenticator.js';
import { limits } from '../../src/config.js';
import { Health } from '../../src/health.js';
import { healthCheck } from '../../src/http/readiness.js';
import { AuthVersionBoard } from '../../src/access/authVersionBoard.js';
import { createAccount, issueToken } from '../../src/access/provisioning.js';
import { AccountStore } from '../../src/store/accountStore.js';
import { openDatabases } from '../../src/store/environment.js';
import { tempDataDir } from '../helpers/service.js';

/** A store of its own holding account 'acme' and one token of it. */
async function accountWithToken(t: Test) {
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  const accounts = new AccountStore(dbs);
  await createAccount(accounts, 'acme', {}, Date.now());
  return { accounts, token: await issueToken(accounts, 'acme', Date.now()) };
}

t.test('authenticator - a failed last-used write is logged, and the token still authenticates', async (t) => {
  const { accounts, token } = await accountWithToken(t);
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

t.test('authenticator - a failed last-used write shows in readiness until a later write succeeds', async (t) => {
  const { accounts, token } = await accountWithToken(t);
  const touchToken = accounts.touchToken.bind(accounts);
  accounts.touchToken = () => Promise.reject(new Error('MDB_MAP_FULL: Environment mapsize limit reached'));
  const health = new Health();
  const authenticator = new Authenticator(accounts, { warn: () => undefined }, new AuthVersionBoard(), health);
  t.teardown(() => authenticator.close());
  const readiness = healthCheck(health);
  const now = Date.now();
  t.equal(authenticator.authenticate(`Bearer ${token.secret}`, now).kind, 'authenticated');
  await new Promise((resolve) => setImmediate(resolve));
  t.match(readiness(), [{ component: tokenBookkeeping, message: /token last-used time not written: MDB_MAP_FULL/, count: 1 }]);
  // The next write is awaited where it lands: the authenticator's own callback on it was
  // attached first, so it has run by the time this await resumes.
  let landed: Promise<void> | undefined;
  accounts.touchToken = (...args) => (landed = touchToken(...args));
  t.equal(authenticator.authenticate(`Bearer ${token.secret}`, now + limits.tokenTouchIntervalMs).kind, 'authenticated');
  t.ok(landed, 'the next authentication writes the time');
  await landed;
  t.same(readiness(), [], 'cleared by the next write that lands');
  t.ok(accounts.tokensOf('acme').find((record) => record.id === token.id)?.lastUsedAt, 'and the time is written');
});

t.test('authenticator - once one thread sees a revocation, every thread sharing its board refuses the token', async (t) => {
  const { accounts, token } = await accountWithToken(t);
  const log = { warn: () => undefined };
  const board = new AuthVersionBoard();
  // Two edges: each would otherwise notice the revocation only at its own next poll.
  const [first, second] = [
    new Authenticator(accounts, log, new AuthVersionBoard(board.buffer)),
    new Authenticator(accounts, log, new AuthVersionBoard(board.buffer)),
  ];
  t.teardown(() => {
    for (const authenticator of [first, second]) authenticator.close();
  });
  const bearer = `Bearer ${token.secret}`;
  t.equal(first.authenticate(bearer, Date.now()).kind, 'authenticated');
  t.equal(second.authenticate(bearer, Date.now()).kind, 'authenticated');

  await accounts.revokeToken(token.id, new Date().toISOString());
  t.equal(second.authenticate(bearer, Date.now()).kind, 'authenticated', 'cached until a poll notices');
  first.refresh();
  t.equal(first.authenticate(bearer, Date.now()).kind, 'invalid', 'the thread whose poll saw it refuses');
  t.equal(second.authenticate(bearer, Date.now()).kind, 'invalid', 'and so does every other thread at once');
});

t.test('auth version board - keeps the newest version whatever the order of posts', async (t) => {
  const board = new AuthVersionBoard();
  board.publish(3);
  board.publish(2);
  t.equal(board.read(), 3);
  new AuthVersionBoard(board.buffer).publish(7);
  t.equal(board.read(), 7);
});

t.test('authenticator - a thread that finds a token revoked by looking it up makes every thread refuse it', async (t) => {
  const { accounts, token } = await accountWithToken(t);
  const log = { warn: () => undefined };
  const board = new AuthVersionBoard();
  const cached = new Authenticator(accounts, log, new AuthVersionBoard(board.buffer));
  const fresh = new Authenticator(accounts, log, new AuthVersionBoard(board.buffer));
  t.teardown(() => {
    for (const authenticator of [cached, fresh]) authenticator.close();
  });
  const bearer = `Bearer ${token.secret}`;
  t.equal(cached.authenticate(bearer, Date.now()).kind, 'authenticated');

  await accounts.revokeToken(token.id, new Date().toISOString());
  // No poll has run: the thread that never saw the token reads it from the store, revoked.
  t.equal(fresh.authenticate(bearer, Date.now()).kind, 'invalid');
  t.equal(cached.authenticate(bearer, Date.now()).kind, 'invalid', 'the thread that had it cached refuses it too');
});
