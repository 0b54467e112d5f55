// The dashboard's records in a cluster (docs/dashboard.md#in-a-cluster): the cluster's
// WebRecords passes the contract on one node; across two nodes a session made on one is accepted
// on the other and one ended on either is ended on both, an invite is taken once, a node that
// starts later holds what the buckets held, an entry that is no record is taken as removed, and
// forgetting an account removes its records.
import type { Test } from 'tap';
import t from 'tap';
import type { ReplicaOptions } from '../../src/seams/replicas/bucketReplica.js';
import { accountKey } from '../../src/cluster/clusterAccounts.js';
import { ClusterWeb } from '../../src/seams/webRecords/clusterWeb.js';
import { closeNats, connectNats } from '../../src/cluster/natsConnection.js';
import { WebReplica } from '../../src/seams/webRecords/webReplica.js';
import { openDatabases } from '../../src/store/environment.js';
import { WebStore } from '../../src/seams/webRecords/webStore.js';
import { digestSecret, newSecret } from '../../src/web/secrets.js';
import { eventually } from '../helpers/eventually.js';
import { startNatsServer } from '../helpers/natsServer.js';
import { tempDataDir } from '../helpers/service.js';
import { password, webRecordsContract } from '../../src/seams/webRecords/webRecords.contract.js';

interface WebNode {
  records: WebReplica;
  store: WebStore;
  cluster: ClusterWeb;
  accounts: Set<string>;
  warnings: unknown[];
}

async function openNode(t: Test, url: string): Promise<WebNode> {
  const connection = await connectNats({ servers: [url], name: 'web replica test' });
  t.teardown(() => closeNats(connection, 500));
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  const store = new WebStore(dbs);
  const cluster = await ClusterWeb.open(connection);
  const accounts = new Set<string>();
  const warnings: unknown[] = [];
  const options: ReplicaOptions = {
    log: { warn: (fields: unknown) => void warnings.push(fields), error: () => t.fail('no write fails') },
    onChanged: () => undefined,
  };
  const records = await WebReplica.start(cluster, store, (name) => accounts.has(name), options);
  t.teardown(() => records.stop());
  return { records, store, cluster, accounts, warnings };
}

/** Resolves once `check` holds on a fresh read, failing after 1 s (docs/dashboard.md#in-a-cluster). */
async function within1s(store: WebStore, check: () => boolean): Promise<void> {
  const read = () => {
    store.refresh();
    return check();
  };
  await eventually(read, (held) => held, { timeoutMs: 1_000, intervalMs: 5, orFail: 'replicated within 1 s' });
}

const digest = () => digestSecret(newSecret());

webRecordsContract(t, 'NATS KV', async (t) => {
  const nats = await startNatsServer(t);
  const node = await openNode(t, nats.url);
  return { records: node.records, store: node.store, addAccount: async (name) => void node.accounts.add(name) };
});

t.test('across two nodes', async (t) => {
  const nats = await startNatsServer(t);
  const [a, b] = [await openNode(t, nats.url), await openNode(t, nats.url)];
  for (const node of [a, b]) node.accounts.add('alice');

  await t.test('a session made on one node is on the other, and ended on either it is ended on both', async (t) => {
    const session = digest();
    const writing = performance.now();
    await a.records.putSession(session, { account: 'alice', csrf: 'x', expiresAt: Date.now() + 60_000 });
    await within1s(b.store, () => b.store.session(session)?.account === 'alice');
    const made = performance.now() - writing;
    const removing = performance.now();
    await b.records.removeSession(session);
    await within1s(a.store, () => a.store.session(session) === undefined);
    const ended = performance.now() - removing;
    t.comment(`on the other node ${made.toFixed(1)} ms after the write began; ended there ${ended.toFixed(1)} ms after the removal began`);
    b.store.refresh();
    t.equal(b.store.session(session), undefined, 'ended on the node that removed it');
    t.equal(a.store.session(session), undefined, 'and on the node that made it');
  });

  await t.test('an invite redeemed on two nodes at once is taken once', async (t) => {
    const invite = digest();
    await a.records.addInvite(invite, { account: 'alice', expiresAt: Date.now() + 60_000 });
    await within1s(b.store, () => b.store.invite(invite) !== undefined);
    const taken = await Promise.all([
      a.records.redeemInvite(invite, Date.now(), password),
      b.records.redeemInvite(invite, Date.now(), password),
    ]);
    t.same(
      taken.filter((account) => account !== undefined),
      ['alice'],
      'one of them got it',
    );
    await within1s(a.store, () => a.store.password('alice') !== undefined && a.store.invite(invite) === undefined);
    await within1s(b.store, () => b.store.password('alice') !== undefined && b.store.invite(invite) === undefined);
  });

  await t.test('a new password set on one node ends the sessions on the other', async (t) => {
    const session = digest();
    await b.records.putSession(session, { account: 'alice', csrf: 'y', expiresAt: Date.now() + 60_000 });
    await within1s(a.store, () => a.store.session(session) !== undefined);
    const invite = digest();
    await a.records.addInvite(invite, { account: 'alice', expiresAt: Date.now() + 60_000 });
    t.equal(await a.records.redeemInvite(invite, Date.now(), { ...password, setAt: '2026-11-27T00:00:00.000Z' }), 'alice');
    await within1s(
      b.store,
      () => b.store.session(session) === undefined && b.store.password('alice')?.setAt === '2026-11-27T00:00:00.000Z',
    );
  });

  await t.test('a node started later holds what the buckets hold when its start resolves', async (t) => {
    const session = digest();
    await a.records.putSession(session, { account: 'alice', csrf: 'z', expiresAt: Date.now() + 60_000 });
    const late = await openNode(t, nats.url);
    t.equal(late.store.session(session)?.csrf, 'z');
    t.equal(late.store.password('alice')?.setAt, '2026-11-27T00:00:00.000Z');
  });

  await t.test('an entry that is no record is taken as removed, with a warning', async (t) => {
    const session = digest();
    await a.records.putSession(session, { account: 'alice', csrf: 'w', expiresAt: Date.now() + 60_000 });
    await within1s(b.store, () => b.store.session(session) !== undefined);
    await a.cluster.sessionEntries.put(session, '{"account": 3}');
    await within1s(b.store, () => b.store.session(session) === undefined);
    t.ok(b.warnings.length > 0, 'warned');
  });

  await t.test('forgetting an account removes its password, sessions and invites', async (t) => {
    const [session, invite, other] = [digest(), digest(), digest()];
    await a.records.putSession(session, { account: 'alice', csrf: 'f', expiresAt: Date.now() + 60_000 });
    await a.records.putSession(other, { account: 'bob', csrf: 'g', expiresAt: Date.now() + 60_000 });
    await a.records.addInvite(invite, { account: 'alice', expiresAt: Date.now() + 60_000 });
    await a.cluster.forget(accountKey('alice'), 'alice');
    await within1s(b.store, () => !b.store.password('alice') && !b.store.session(session) && !b.store.invite(invite));
    t.ok(b.store.session(other), "another account's session stays");
  });
});
