// A node's replica of the cluster's accounts and tokens (docs/cluster.md#accounts-and-tokens):
// it holds what the buckets held when it started before it resolves, follows changes and
// deletions, keeps its own last-used times, and skips an entry that is not a record.
import t from 'tap';
import { AccountReplica } from '../../src/seams/replicas/accountReplica.js';
import { ClusterAccounts, accountKey } from '../../src/cluster/clusterAccounts.js';
import { closeNats, connectNats } from '../../src/cluster/natsConnection.js';
import { AccountStore, type AccountRecord, type TokenRecord } from '../../src/store/accountStore.js';
import { openDatabases } from '../../src/store/environment.js';
import { eventually } from '../helpers/eventually.js';
import { startNatsServer } from '../helpers/natsServer.js';
import { tempDataDir } from '../helpers/service.js';

const account: AccountRecord = {
  name: 'acme.eu',
  plan: 'free',
  quota: 500,
  rate: { limit: 60, windowMs: 60_000 },
  createdAt: '2026-11-01T00:00:00.000Z',
};
const token: TokenRecord = {
  id: 'tok_0123456789ab',
  account: 'acme.eu',
  digest: 'd1',
  createdAt: '2026-11-01T00:00:00.000Z',
  lastUsedAt: null,
  revokedAt: null,
  shown: 'dp_abc',
  note: null,
};

const until = (check: () => boolean) =>
  eventually(check, (held) => held, { timeoutMs: 2_000, intervalMs: 10, orFail: 'replicated within 2 s' });

t.test('the replica catches up, follows changes and skips what is not a record', async (t) => {
  const nats = await startNatsServer(t);
  const connection = await connectNats({ servers: [nats.url], name: 'replica test' });
  t.teardown(() => closeNats(connection, 500));
  const cluster = await ClusterAccounts.open(connection);
  t.equal(await cluster.createAccount(account), true);
  t.equal(await cluster.createAccount(account), false, 'a taken name is refused');
  await cluster.addToken(token);
  await cluster.accountEntries.put(accountKey('broken'), '{"name": 3}');

  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  const store = new AccountStore(dbs);
  const warnings: unknown[] = [];
  let changes = 0;
  const replica = await AccountReplica.start(cluster, store, {
    log: { warn: (fields: unknown) => void warnings.push(fields), error: () => t.fail('no write fails') },
    onChanged: () => void changes++,
  });
  t.teardown(() => replica.stop());
  t.same(store.account('acme.eu'), account, 'held before start resolves');
  t.same(store.tokenByDigest('d1'), token);
  t.equal(store.account('broken'), undefined);
  t.same(warnings, [{ key: accountKey('broken') }]);
  t.equal(changes, 2);

  await store.touchToken(token.id, '2026-11-20T00:00:00.000Z');
  await cluster.revokeToken(token.id, '2026-11-21T00:00:00.000Z');
  await until(() => store.token(token.id)?.revokedAt === '2026-11-21T00:00:00.000Z');
  t.equal(store.token(token.id)?.lastUsedAt, '2026-11-20T00:00:00.000Z', 'the node keeps its own last-used time');
  await cluster.updateAccount('acme.eu', { quota: 9 });
  await until(() => store.account('acme.eu')?.quota === 9);

  const versionBefore = store.authVersion();
  t.equal(await cluster.deleteAccount('acme.eu'), 1);
  await until(() => store.account('acme.eu') === undefined && store.token(token.id) === undefined);
  t.ok(store.authVersion() > versionBefore, 'each change bumps the auth version');
});

t.test('catching up: the node holds what the cluster held when asked, and calls at once share a look', async (t) => {
  const nats = await startNatsServer(t);
  const connection = await connectNats({ servers: [nats.url], name: 'replica test' });
  t.teardown(() => closeNats(connection, 500));
  const cluster = await ClusterAccounts.open(connection);
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  const store = new AccountStore(dbs);
  const replica = await AccountReplica.start(cluster, store, {
    log: { warn: () => undefined, error: () => undefined },
    onChanged: () => undefined,
  });
  t.teardown(() => replica.stop());

  await cluster.createAccount(account);
  await cluster.addToken(token);
  await replica.catchUp();
  t.same(store.tokenByDigest('d1'), token, 'a token made a moment ago is held once catchUp resolves');
  t.ok(store.account('acme.eu'), 'and its account');

  const status = cluster.tokenEntries.status.bind(cluster.tokenEntries);
  let looks = 0;
  cluster.tokenEntries.status = () => {
    looks++;
    return status();
  };
  await Promise.all(Array.from({ length: 50 }, () => replica.catchUp()));
  // The first call may find the previous look ending, so the first look may already be the shared one.
  t.ok(looks >= 1 && looks <= 2, `fifty calls at once: ${looks} look(s), the one under way and one after it at most`);
});
