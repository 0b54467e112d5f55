// Each node's LMDB replica of the resource log (docs/design/cluster.md#resource-replication): what one
// node commits reaches the others' LMDB, in order, with the revision applied recorded alongside;
// a node resumes after that revision, a new node reads the whole log, and a lost commit leaves the
// winner's change in the loser's replica.
import { CommittedLeases } from '../../src/resources/memoryLeases.js';
import t from 'tap';
import { createResourceMachine, dueEventFor } from '../../machines/resource.js';
import { defaultPolicy } from '../../src/config.js';
import { ResourceHost } from '../../src/resources/host.js';
import { SearchesFirstQueue } from '../../src/resources/searchesFirstQueue.js';
import { WorkRegistry } from '../../src/resources/workRegistry.js';
import { InProcessResourceLog } from '../../src/seams/resourceLog/resourceLog.js';
import { resourceLogNames } from '../../src/seams/resourceLog/resourceLogStream.js';
import { ResourceLogReplica, replicaHealth } from '../../src/seams/replicas/resourceLogReplica.js';
import { Health } from '../../src/health.js';
import { silentLogger } from '../../src/log.js';
import { found, notFound } from '../../src/model.js';
import type { Databases } from '../../src/store/environment.js';
import { openDatabases } from '../../src/store/environment.js';
import { ResourceReplica } from '../../src/store/resourceReplica.js';
import { ResourceStore, type StoredResource } from '../../src/store/resourceStore.js';
import { openClusterNode, type ClusterNode } from '../helpers/clusterNode.js';
import { eventually } from '../helpers/eventually.js';
import { startNatsServer, untilReconnected, untilStored } from '../helpers/natsServer.js';
import { tempDataDir } from '../helpers/service.js';
import { at, availableResource, commitResource, pendingResource, viewOf } from '../store/resourceFixtures.js';
import { changeOf } from '../../src/seams/resourceLog/resourceLog.contract.js';

const key = 'github/account/octocat';

function dueEntriesOf(dbs: Databases, resource: string): Array<[number, string]> {
  dbs.root.resetReadTxn();
  return [...dbs.due.getRange()].map((entry) => entry.key).filter((due) => due[1] === resource);
}

/** Commits `next` on `node` as the successor of what its replica holds. */
async function commitOn(node: ClusterNode, resource: string, next: StoredResource): Promise<boolean> {
  const stored = node.store.snapshotEntry(resource);
  return commitResource(node.store, { key: resource, base: stored, next });
}

t.test('resource replica - a change committed on one node reaches the other: snapshot at its revision, view, one due entry', async (t) => {
  const server = await startNatsServer(t);
  const [a, b] = await Promise.all([openClusterNode(t, server.url, 'a'), openClusterNode(t, server.url, 'b')]);
  const replica = await b.startReplica();
  t.equal(await commitOn(a, key, pendingResource()), true);
  await replica.untilApplied(1);
  t.same(b.store.snapshotEntry(key), { resource: pendingResource(), version: 1 });
  t.same(b.store.view(key), viewOf(pendingResource()));

  t.equal(await commitOn(a, key, availableResource(7)), true);
  await replica.untilApplied(2);
  t.same(b.store.snapshotEntry(key), { resource: availableResource(7), version: 2 });
  t.same(b.store.view(key), viewOf(availableResource(7)));
  t.same(dueEntriesOf(b.dbs, key), [[availableResource(7).context.nextDueAt, key]], 'the old due entry is gone');
  t.same(dueEntriesOf(a.dbs, key), dueEntriesOf(b.dbs, key), 'the writer holds the same');
  t.equal(b.replicaStore.appliedRevision(), 2, 'the revision applied is recorded');
  t.same(b.health.problems(), []);
});

t.test('resource replica - a node that restarts resumes after the revision its LMDB recorded', async (t) => {
  const server = await startNatsServer(t);
  const a = await openClusterNode(t, server.url, 'a');
  const b = await openClusterNode(t, server.url, 'b');
  await commitOn(a, 'gh/account/1', pendingResource());
  await commitOn(a, 'gh/account/2', pendingResource());
  await (await b.startReplica()).untilApplied(2);
  await b.close();

  for (const name of ['3', '4', '5']) await commitOn(a, `gh/account/${name}`, pendingResource());
  await commitOn(a, 'gh/account/1', availableResource(1));
  const again = await openClusterNode(t, server.url, 'b again', b.dataDir);
  const followedFrom: number[] = [];
  const follow = again.log.follow.bind(again.log);
  again.log.follow = (after) => {
    followedFrom.push(after);
    return follow(after);
  };
  const replica = await again.startReplica();
  await replica.untilApplied(6);
  t.same(followedFrom, [2], 'no rebuild: it follows from the revision it had');
  t.same(
    ['1', '2', '3', '4', '5'].map((name) => again.store.snapshotEntry(`gh/account/${name}`)?.version),
    [6, 2, 3, 4, 5],
  );
  t.same(again.store.snapshot('gh/account/1'), availableResource(1));
});

t.test('resource replica - a new node reads the whole log: the last change of every resource', async (t) => {
  const server = await startNatsServer(t);
  const a = await openClusterNode(t, server.url, 'a');
  const keys = Array.from({ length: 30 }, (_, n) => `gh/account/${n}`);
  for (const resource of keys) await commitOn(a, resource, pendingResource());
  for (const [n, resource] of keys.entries()) await commitOn(a, resource, availableResource(n));
  const joining = await openClusterNode(t, server.url, 'joining');
  const replica = await joining.startReplica();
  await replica.caughtUp();
  t.equal(replica.appliedRevision, 60);
  t.equal(joining.store.count(), 30);
  t.same(
    keys.map((resource) => joining.store.snapshotEntry(resource)),
    keys.map((resource) => a.store.snapshotEntry(resource)),
  );
  t.same(
    keys.map((resource) => dueEntriesOf(joining.dbs, resource).length),
    keys.map(() => 1),
  );
});

t.test("resource replica - a lost commit leaves the winner's change in the loser's replica, ahead of its follower", async (t) => {
  const server = await startNatsServer(t);
  const [a, b] = await Promise.all([openClusterNode(t, server.url, 'a'), openClusterNode(t, server.url, 'b')]);
  t.equal(await commitOn(a, key, pendingResource()), true);
  t.equal(await commitOn(b, key, availableResource(3)), false, 'b computed a creation: the resource exists');
  t.same(b.store.snapshotEntry(key), { resource: pendingResource(), version: 1 }, 'b now holds what a wrote');
  t.equal(await commitOn(b, key, availableResource(3)), true, 'and its step from there goes in');
  t.equal(await commitOn(a, key, availableResource(4)), false, "a's replica has not seen it: lost");
  t.same(a.store.snapshotEntry(key), { resource: availableResource(3), version: 2 });
  t.same(a.store.view(key), viewOf(availableResource(3)), 'the view it serves moved too');
  t.same(dueEntriesOf(a.dbs, key), [[availableResource(3).context.nextDueAt, key]]);
  t.equal(a.replicaStore.appliedRevision(), 0, 'the revision applied in order is only ever the follower’s');
});

t.test('resource replica - a directory with resources from outside a cluster, or ahead of the log, is refused', async (t) => {
  const server = await startNatsServer(t);
  const single = tempDataDir(t);
  const dbs = openDatabases(single);
  await new ResourceStore(dbs).commit(key, undefined, {
    resource: pendingResource(),
    view: viewOf(pendingResource()),
    event: dueEventFor.pending,
    cause: { event: 'CREATED', at: Date.now() },
  });
  await dbs.root.close();
  const outsider = await openClusterNode(t, server.url, 'outsider', single);
  await t.rejects(outsider.startReplica(), {
    name: 'DataDirectoryError',
    message: `data directory ${single} holds resources of a node outside a cluster: start a cluster node on an empty directory, or on a copy of another node's`,
  });

  const a = await openClusterNode(t, server.url, 'a');
  await commitOn(a, key, pendingResource());
  await commitOn(a, key, availableResource(1));
  await (await a.startReplica()).untilApplied(2);
  await a.close();
  const emptied = await startNatsServer(t);
  const again = await openClusterNode(t, emptied.url, 'a on an empty nats-server', a.dataDir);
  await t.rejects(again.startReplica(), {
    name: 'DataDirectoryError',
    message: `data directory ${a.dataDir} holds revision 2 of the resource log, which ends at 0: NATS lost its store; start this node on an empty directory`,
  });
});

t.test('resource replica - it follows on after nats-server is killed -9 and restarted on its store', async (t) => {
  const server = await startNatsServer(t);
  const [a, b] = await Promise.all([openClusterNode(t, server.url, 'a'), openClusterNode(t, server.url, 'b')]);
  const replica = await b.startReplica();
  await commitOn(a, 'gh/account/1', pendingResource());
  await replica.untilApplied(1);
  // Killed once the commit, on its resource's subject, is in the log's block file.
  await untilStored(
    server,
    resourceLogNames.stream,
    `${resourceLogNames.subjectPrefix}.${Buffer.from('gh/account/1').toString('base64url')}`,
  );
  const reconnected = Promise.all([untilReconnected(a.connection), untilReconnected(b.connection)]);
  await server.kill();
  await server.restart();
  await reconnected;
  t.equal(await commitOn(a, 'gh/account/1', availableResource(2)), true, 'the revision survived the restart');
  await commitOn(a, 'gh/account/2', pendingResource());
  await replica.untilApplied(3);
  t.same(b.store.snapshotEntry('gh/account/1'), { resource: availableResource(2), version: 2 });
  t.equal(b.store.snapshotEntry('gh/account/2')?.version, 3);
});

t.test("resource replica - an outcome for a resource another node created meets that node's state, not a lagging copy", async (t) => {
  const server = await startNatsServer(t);
  const [a, b] = await Promise.all([openClusterNode(t, server.url, 'a'), openClusterNode(t, server.url, 'b')]);
  const replica = await b.startReplica();
  await replica.stop(); // b's follower lags behind for as long as the test runs
  t.equal(await commitOn(a, key, pendingResource()), true);
  const seen: Array<[string, StoredResource | undefined]> = [];
  const sink = replica.caughtUpOutcomes({
    deliver: async (resource) => void seen.push(['deliver', b.store.snapshot(resource)]),
    abandoned: async (resource) => void seen.push(['abandoned', b.store.snapshot(resource)]),
  });
  await sink.deliver(key, notFound);
  t.same(seen, [['deliver', pendingResource()]], 'the sink read the resource a created');
  t.equal(await commitOn(a, key, availableResource(1)), true);
  await sink.abandoned(key);
  t.same(seen[1], ['abandoned', availableResource(1)], 'and its change since, when a lease is ended');
});

t.test(
  'resource replica - an outcome for a resource whose copy lags is not read from the log first: the stale step is refused and stepped again from the winner',
  async (t) => {
    const server = await startNatsServer(t);
    const [a, b] = await Promise.all([openClusterNode(t, server.url, 'a'), openClusterNode(t, server.url, 'b')]);
    const replica = await b.startReplica();
    t.equal(await commitOn(a, key, pendingResource()), true);
    await replica.untilApplied(1);
    await replica.stop(); // b's copy stays at revision 1 from here on
    t.equal(await commitOn(a, key, availableResource(1)), true);
    let reads = 0;
    const latest = b.log.latest.bind(b.log);
    b.log.latest = (resource) => {
      reads++;
      return latest(resource);
    };
    const errors: unknown[] = [];
    const host = new ResourceHost({
      store: b.store,
      leases: new CommittedLeases(),
      machine: createResourceMachine(defaultPolicy),
      work: new WorkRegistry(new SearchesFirstQueue({ sliceMs: 1, maxRunning: 16 })),
      requestCollection: () => undefined,
      now: () => at + 5_000,
      random: () => 0.5,
      onError: (_resource, error) => errors.push(error),
    });
    const sink = replica.caughtUpOutcomes(host);
    const collected = (followers: number) => found({ metrics: { followers: { value: followers, semantic: 'followers' } } });
    await sink.deliver(key, collected(9));
    t.equal(reads, 1, 'b holds a copy: no read before the step, one to learn the winner of the refused append');
    t.same(errors, []);
    t.equal(b.store.snapshotEntry(key)?.version, 3, "appended over a's revision 2, not b's 1");
    t.same(
      b.store.history(key).map(({ event, from, to }) => [event, from, to]),
      [
        ['CREATED', null, 'pending'],
        ['COLLECTED', 'pending', 'available'],
        ['COLLECTED', 'available', 'available'],
      ],
      "stepped from a's change: the transition from its state, after a's own",
    );
    t.same((await a.log.latest(key))?.resource, b.store.snapshot(key), 'the log holds what b recorded');
    reads = 0;
    await sink.deliver(key, collected(10));
    t.equal(reads, 0, 'a copy that is the latest: no read of the log at all');
    t.equal(b.store.snapshotEntry(key)?.version, 4);
    t.same(errors, []);
  },
);

t.test('resource replica - a write that fails is reported, and following starts again from the revision recorded', async (t) => {
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  const log = new InProcessResourceLog();
  const local = new ResourceStore(dbs);
  const store = ResourceReplica.of(local, log);
  const health = new Health();
  const followedFrom: number[] = [];
  const follow = log.follow.bind(log);
  log.follow = (after) => {
    followedFrom.push(after);
    return follow(after);
  };
  const apply = store.applyLogged.bind(store);
  let failures = 1;
  store.applyLogged = (change, advanceCursor) => {
    if (change.revision === 2 && failures-- > 0) return Promise.reject(new Error('MDB_MAP_FULL'));
    return apply(change, advanceCursor);
  };
  const replica = await ResourceLogReplica.start(log, store, { maxPendingWrites: 1, restartDelayMs: 100 }, health, silentLogger);
  t.teardown(() => replica.stop());
  for (const name of ['1', '2', '3']) await log.append(`gh/account/${name}`, 0, changeOf(pendingResource()));
  await eventually(
    () => health.problems().length > 0,
    (held) => held,
    { intervalMs: 10, orFail: 'a problem reported' },
  );
  t.same(
    health.problems().map((problem) => [problem.component, problem.message]),
    [[replicaHealth, 'cannot follow the resource log: MDB_MAP_FULL']],
  );
  await replica.untilApplied(3);
  t.same(followedFrom, [0, 1], 'again from revision 1, the last one written');
  t.equal(local.count(), 3);
  await log.append('gh/account/4', 0, changeOf(pendingResource()));
  await replica.untilApplied(4);
  t.same(health.problems(), [], 'cleared once changes are written again');
});
