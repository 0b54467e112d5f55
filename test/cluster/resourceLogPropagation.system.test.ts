// How fast a change committed on one node is in another node's LMDB (docs/design/cluster.md#resource-replication). Asserts only that every change arrives, in order, within a generous bound; the
// figures (p50 and p99 from the start of the commit on one node to the end of the LMDB write on
// the other) are printed as comments, and docs/cluster.md records a run of them.
import t, { type Test } from 'tap';
import { openClusterNode, type ClusterNode } from '../helpers/clusterNode.js';
import { startNatsServer } from '../helpers/natsServer.js';
import { commitResource, pendingResource } from '../store/resourceFixtures.js';

const generousMs = 5_000;

/** When each revision was written into `node`'s LMDB by its follower, in performance.now() time. */
function recordApplied(node: ClusterNode): Map<number, number> {
  const appliedAt = new Map<number, number>();
  const apply = node.replicaStore.applyLogged.bind(node.replicaStore);
  node.replicaStore.applyLogged = async (change, advanceCursor) => {
    const written = await apply(change, advanceCursor);
    if (advanceCursor) appliedAt.set(change.revision, performance.now());
    return written;
  };
  return appliedAt;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

async function measure(t: Test, changes: number, inFlight: number) {
  const server = await startNatsServer(t);
  const [a, b] = await Promise.all([openClusterNode(t, server.url, 'a'), openClusterNode(t, server.url, 'b')]);
  const appliedAt = recordApplied(b);
  const replica = await b.startReplica();
  const started = new Map<number, number>();
  let next = 0;
  const writer = async () => {
    while (next < changes) {
      const key = `github/account/user${next++}`;
      const begun = performance.now();
      await commitResource(a.store, { key, next: pendingResource() });
      const revision = a.store.snapshotEntry(key)?.version ?? -1;
      started.set(revision, begun);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, writer));
  const last = await a.log.head();
  await Promise.race([
    replica.untilApplied(last),
    new Promise((_, reject) => setTimeout(() => reject(new Error(`not applied within ${generousMs} ms`)), generousMs)),
  ]);
  const delays = [...started]
    .map(([revision, begun]) => (appliedAt.get(revision) ?? Number.POSITIVE_INFINITY) - begun)
    .sort((x, y) => x - y);
  t.equal(delays.length, changes);
  t.ok(
    delays.every((delay) => delay < generousMs),
    'every change reached the other node',
  );
  t.equal(b.store.count(), changes);
  t.same(b.store.snapshotEntry(`github/account/user${changes - 1}`)?.resource, pendingResource());
  t.same(b.health.problems(), []);
  const joining = await openClusterNode(t, server.url, 'joining');
  const joinedAt = performance.now();
  await (await joining.startReplica()).caughtUp();
  const joinMs = performance.now() - joinedAt;
  t.equal(joining.store.count(), changes, 'a joining node reads all of them');
  t.comment(`a joining node read the ${changes} changes in ${joinMs.toFixed(0)} ms`);
  t.comment(
    `${changes} changes, ${inFlight} commits in flight: p50 ${percentile(delays, 50).toFixed(1)} ms, p99 ${percentile(delays, 99).toFixed(1)} ms, max ${percentile(delays, 100).toFixed(1)} ms`,
  );
}

t.test('propagation - one commit at a time: each reaches the other node', (t) => measure(t, 500, 1));

t.test('propagation - 32 commits in flight: each reaches the other node', (t) => measure(t, 5_000, 32));
