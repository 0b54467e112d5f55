// One writer per resource across nodes (docs/design/cluster.md#one-writer-per-resource): resource hosts
// on two nodes, each with its own LMDB replica and its own NATS connection, racing on the same
// resources. Every commit is an append on condition of the resource's revision in the cluster's
// log, so of two steps computed from one revision exactly one goes in and the other is computed
// again from the winner's.
import t, { type Test } from 'tap';
import { found, notFound } from '../../src/model.js';
import { openClusterNode } from '../helpers/clusterNode.js';
import { startNatsServer } from '../helpers/natsServer.js';
import { testResourceHost } from '../helpers/resourceHost.js';

const at = Date.UTC(2026, 10, 23);

async function hostNode(t: Test, url: string, name: string) {
  const node = await openClusterNode(t, url, name);
  const { resourceHost: host, requested, errors } = testResourceHost(node.store, { now: () => at + 1_000 });
  return { ...node, host, requested, errors };
}

t.test('resource race - first searches of the same new resources on two nodes at once start one collection each', async (t) => {
  const server = await startNatsServer(t);
  const [a, b] = await Promise.all([hostNode(t, server.url, 'a'), hostNode(t, server.url, 'b')]);
  const keys = Array.from({ length: 40 }, (_, n) => `github/account/user${n}`);
  // Neither replica follows the log yet: each node finds every resource unknown and creates it.
  a.host.wanted(keys, at);
  b.host.wanted(keys, at);
  await Promise.all([a.host.settled(), b.host.settled()]);
  t.same([a.errors, b.errors], [[], []], 'losing a creation is not an error');
  t.same([...a.requested, ...b.requested].sort(), [...keys].sort(), 'each resource asked for once, cluster-wide');

  await Promise.all([(await a.startReplica()).caughtUp(), (await b.startReplica()).caughtUp()]);
  t.same(
    keys.map((key) => b.store.snapshotEntry(key)),
    keys.map((key) => a.store.snapshotEntry(key)),
    'both replicas hold the same resources',
  );
  t.same(new Set(keys.map((key) => a.store.snapshotEntry(key)?.resource.value)), new Set(['pending']));
});

t.test('resource race - outcomes for one resource recorded on two nodes at once: both kept, in one history', async (t) => {
  const server = await startNatsServer(t);
  const [a, b] = await Promise.all([hostNode(t, server.url, 'a'), hostNode(t, server.url, 'b')]);
  const key = 'github/account/octocat';
  a.host.wanted([key], at);
  await a.host.settled();
  await (await b.startReplica()).untilApplied(1);

  const collected = found({ metrics: { followers: { value: 42, semantic: 'followers' } } });
  await Promise.all([a.host.deliver(key, collected), b.host.deliver(key, notFound)]);
  t.same([a.errors, b.errors], [[], []]);
  await (await a.startReplica()).untilApplied(3);
  const stored = a.store.snapshotEntry(key);
  t.equal(stored?.version, 3, 'created, then one revision per outcome');
  t.same(stored?.resource.context.history.map((entry) => entry.event).sort(), ['COLLECTED', 'NOT_FOUND'], 'no result lost');
  t.same(b.store.snapshotEntry(key), stored, 'both nodes hold the same state');
});
