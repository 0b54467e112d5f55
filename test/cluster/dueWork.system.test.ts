// Due work exactly once across nodes (docs/design/cluster.md#due-work-exactly-once): two collecting
// nodes, each with its own LMDB replica, its own NATS connections and the service's due scheduler
// over its replica's due index. Each due resource is stepped under the cluster's revision check,
// and the winner asks the shared JetStream collection queue for it: one collection each, whether
// both nodes scan at once, one of them is closed meanwhile, or one dies between recording its
// lease and asking for the collection.
import { CommittedLeases } from '../../src/resources/memoryLeases.js';
import t, { type Test } from 'tap';
import { asyncScheduler, type Subscription } from 'rxjs';
import { createResourceMachine } from '../../machines/resource.js';
import { sharedDueIndex } from '../../src/cluster/dueWorkShare.js';
import { closeNats } from '../../src/cluster/natsConnection.js';
import { defaultPolicy } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { startDueScheduler } from '../../src/resources/dueScheduler.js';
import { ResourceHost } from '../../src/resources/host.js';
import { SearchesFirstQueue } from '../../src/resources/searchesFirstQueue.js';
import { WorkRegistry } from '../../src/resources/workRegistry.js';
import type { StoredResource } from '../../src/store/resourceStore.js';
import { openClusterNode, type ClusterNode } from '../helpers/clusterNode.js';
import { eventually } from '../helpers/eventually.js';
import { openTestQueue } from '../helpers/natsQueue.js';
import { startNatsServer } from '../helpers/natsServer.js';
import { availableResource, commitResource } from '../store/resourceFixtures.js';

/** Leases of the collections asked for: long enough not to end within a test, unless it says so. */
const longLeaseMs = 60_000;
const shortLeaseMs = 1_500;

/** An available resource whose refresh is due at `dueAt`. */
const dueResource = (dueAt: number): StoredResource => ({
  value: 'available',
  context: { ...availableResource(1).context, nextDueAt: dueAt },
});

interface CollectingNode extends ClusterNode {
  /** Keys this node's host asked a collection for, with when. */
  requested: Array<[key: string, at: number]>;
  errors: unknown[];
  startScanning(spreadMs: number): void;
  /** Resolves once no step of its host is under way. */
  settled(): Promise<void>;
  /** The node dies: it stops scanning and loses its connections (the queue's too). */
  die(): Promise<void>;
}

/**
 * A collecting node. Nothing collects: a collection asked for stays in the queue, and its lease
 * in the resource runs for `leaseMs`. `asks`: whether its host's requests reach the queue; a node
 * that does not is one that dies right after recording the lease of the collection it asked for.
 */
async function collectingNode(t: Test, url: string, name: string, leaseMs: number, asks = true): Promise<CollectingNode> {
  const node = await openClusterNode(t, url, name);
  const { queue, connection: queueConnection } = await openTestQueue(t, url, `${name} queue`);
  const work = new WorkRegistry(new SearchesFirstQueue({ sliceMs: 1, maxRunning: 16 }));
  const requested: Array<[string, number]> = [];
  const errors: unknown[] = [];
  const host = new ResourceHost({
    store: node.store,
    leases: new CommittedLeases(),
    machine: createResourceMachine({ ...defaultPolicy, leaseMs }),
    work,
    requestCollection: (key) => {
      requested.push([key, Date.now()]);
      if (asks) queue.request(key).catch((error: unknown) => errors.push(error));
    },
    now: Date.now,
    random: () => 0.5,
    onError: (_key, error) => errors.push(error),
  });
  let scanning: Subscription | undefined;
  const stopScanning = async () => {
    scanning?.unsubscribe();
    await host.settled();
  };
  t.teardown(stopScanning);
  return {
    ...node,
    requested,
    errors,
    settled: () => host.settled(),
    startScanning(spreadMs) {
      scanning = startDueScheduler({
        index: sharedDueIndex(node.store, name, spreadMs, (key) => work.has(key)),
        resourceHost: host,
        work,
        maxInWork: 1_000,
        scanBatch: 64,
        scanMs: 25,
        restartDelayMs: 200,
        now: Date.now,
        scheduler: asyncScheduler,
        log: silentLogger,
        health: node.health,
      });
    },
    async die() {
      await stopScanning();
      queue.close();
      await closeNats(queueConnection, 500);
      await node.close();
    },
  };
}

/** Every request waiting in the cluster's collection queue, taken by a node of its own. */
async function queuedKeys(t: Test, url: string): Promise<string[]> {
  const { queue } = await openTestQueue(t, url, 'observer');
  const keys: string[] = [];
  for (let leases = await queue.take(500); leases.length > 0; leases = await queue.take(500)) {
    keys.push(...leases.map((lease) => lease.key));
  }
  return keys.sort();
}

const keysOf = (requested: Array<[string, number]>) => requested.map(([key]) => key);

t.test('due work - two nodes scanning the same due resources at once ask for one collection each; closed, one does all', async (t) => {
  const server = await startNatsServer(t);
  const [a, b] = await Promise.all([collectingNode(t, server.url, 'a', longLeaseMs), collectingNode(t, server.url, 'b', longLeaseMs)]);
  const dueNow = Array.from({ length: 40 }, (_, n) => `github/account/now${n}`);
  const dueLater = Array.from({ length: 20 }, (_, n) => `github/account/later${n}`);
  for (const key of dueNow) await commitResource(a.store, { key, next: dueResource(Date.now() - 1_000) });
  const [, replicaOfB] = await Promise.all([a.startReplica(), b.startReplica()]);
  await replicaOfB.caughtUp();

  // No spread: both nodes step every due resource as soon as they see it, and race on each.
  a.startScanning(0);
  b.startScanning(0);
  await eventually(
    () => a.requested.length + b.requested.length >= dueNow.length,
    (held) => held,
    { timeoutMs: 10_000, orFail: 'every resource due now asked for' },
  );
  // Resources a records, due only after it has died.
  const laterDueAt = Date.now() + 1_500;
  for (const key of dueLater) await commitResource(a.store, { key, next: dueResource(laterDueAt) });
  await replicaOfB.caughtUp();
  await a.die();
  t.ok(Date.now() < laterDueAt, 'a died before the later ones fell due');
  await eventually(
    () => b.requested.length + a.requested.length >= dueNow.length + dueLater.length,
    (held) => held,
    { timeoutMs: 10_000, orFail: 'the later ones asked for' },
  );
  // Nothing is left that could ask again: every due entry on the survivor has moved to its
  // lease's end (none is due), and no step that read one before it moved is still under way.
  await eventually(
    () => b.store.dueBefore(Date.now(), 1).length === 0,
    (held) => held,
    { timeoutMs: 10_000, orFail: 'nothing due on the survivor' },
  );
  await b.settled();

  t.same([a.errors, b.errors], [[], []]);
  const all = [...dueNow, ...dueLater].sort();
  t.same([...keysOf(a.requested), ...keysOf(b.requested)].sort(), all, 'each resource asked for once, cluster-wide');
  t.same(
    keysOf(b.requested)
      .filter((key) => key.includes('later'))
      .sort(),
    [...dueLater].sort(),
    'the survivor did all the later ones',
  );
  t.same(await queuedKeys(t, server.url), all, 'the queue holds one collection for each');
});

t.test('due work - a node that dies between recording a lease and asking for it: another asks once the lease ends', async (t) => {
  const server = await startNatsServer(t);
  const dying = await collectingNode(t, server.url, 'dying', shortLeaseMs, false);
  const survivor = await collectingNode(t, server.url, 'survivor', shortLeaseMs);
  const keys = Array.from({ length: 10 }, (_, n) => `github/account/user${n}`);
  for (const key of keys) await commitResource(dying.store, { key, next: dueResource(Date.now() - 1_000) });
  const replica = await survivor.startReplica();
  await replica.caughtUp();

  dying.startScanning(0);
  await eventually(
    () => dying.requested.length === keys.length,
    (held) => held,
    { timeoutMs: 10_000, orFail: 'the dying node recorded every lease' },
  );
  // The leases the dying node recorded: each resource is due again when its lease ends.
  const leaseEnds = new Map(keys.map((key) => [key, dying.store.snapshot(key)?.context.nextDueAt ?? Number.NaN]));
  await dying.die();
  await replica.caughtUp();
  survivor.startScanning(500);
  await eventually(
    () => survivor.requested.length === keys.length,
    (held) => held,
    { timeoutMs: 10_000, orFail: 'the survivor asked for every one' },
  );

  t.same(keysOf(survivor.requested).sort(), [...keys].sort());
  t.ok(
    survivor.requested.every(([key, at]) => at >= (leaseEnds.get(key) ?? Number.POSITIVE_INFINITY)),
    'none before the lease the dead node recorded ran out',
  );
  t.same(await queuedKeys(t, server.url), [...keys].sort(), 'one collection each');
  t.same(survivor.errors, []);
});
