// The virtual-actor host over a real LMDB store: snapshots round-trip, the due index
// follows the machine, and concurrent first demands start exactly one collection.
import t, { type Test } from 'tap';
import { initialTransition, transition } from 'xstate';
import { createResourceMachine } from '../../machines/resource.js';
import { defaultPolicy } from '../../src/config.js';
import { MemoryLeases } from '../../src/resources/memoryLeases.js';
import { openDatabases } from '../../src/store/environment.js';
import { ResourceStore } from '../../src/store/resourceStore.js';
import { availableResource, commitResource } from '../store/resourceFixtures.js';
import { testResourceHost } from '../helpers/resourceHost.js';
import { tempDataDir } from '../helpers/service.js';

const machine = createResourceMachine(defaultPolicy);
const key = 'github/account/octocat';
const datapoints = { metrics: { followers: { value: 42, semantic: 'followers' } } };

function resourceHostOn(dataDir: string, clock: { now: number }, leases?: MemoryLeases) {
  const dbs = openDatabases(dataDir);
  const store = new ResourceStore(dbs);
  return { dbs, store, ...testResourceHost(store, { now: () => clock.now, machine, random: 0, leases }) };
}

/** A host whose due steps hold their leases in memory (a server alone), with `key` created. */
async function hostWithMemoryLeases(t: Test) {
  const clock = { now: Date.UTC(2026, 10, 23) };
  const leases = new MemoryLeases();
  const host = resourceHostOn(tempDataDir(t), clock, leases);
  t.teardown(() => host.dbs.root.close());
  host.resourceHost.wanted([key], clock.now);
  await host.resourceHost.settled();
  return { clock, leases, ...host };
}

/** Counts the store's commits from now on. */
function countCommits(store: ResourceStore): { count: number } {
  const counted = { count: 0 };
  const commit = store.commit.bind(store);
  store.commit = (...args) => {
    counted.count++;
    return commit(...args);
  };
  return counted;
}

t.test('resource host - concurrent first demands create one pending resource and one collection', async (t) => {
  const clock = { now: Date.UTC(2026, 10, 23) };
  const { dbs, store, resourceHost, requested } = resourceHostOn(tempDataDir(t), clock);
  t.teardown(() => dbs.root.close());
  resourceHost.wanted([key], clock.now);
  resourceHost.wanted([key], clock.now);
  resourceHost.wanted([key, key], clock.now);
  t.equal(store.view(key), undefined, 'nothing is written before the step runs');
  await resourceHost.settled();
  t.same(requested, [key]);
  t.equal(store.snapshot(key)?.value, 'pending');
  t.same(store.view(key), { entryEnd: ',"status":"pending"}', refreshAfter: 0 });
  t.same(store.dueBefore(clock.now + defaultPolicy.leaseMs, 10), [{ key, dueAt: clock.now + defaultPolicy.leaseMs, event: 'RETRY_DUE' }]);
  resourceHost.wanted([key], clock.now);
  await resourceHost.settled();
  t.same(requested, [key], 'a known resource is not created again');
});

t.test('resource host - outcomes update snapshot, view and due index together', async (t) => {
  const clock = { now: Date.UTC(2026, 10, 23) };
  const { dbs, store, resourceHost } = resourceHostOn(tempDataDir(t), clock);
  t.teardown(() => dbs.root.close());
  resourceHost.wanted([key], clock.now);
  await resourceHost.settled();
  const at = clock.now + 100;
  await resourceHost.send(key, { type: 'COLLECTED', at, datapoints });
  const collectedAt = new Date(at).toISOString();
  t.same(store.view(key), {
    entryEnd: `,"status":"available","metrics":{"followers":{"value":42,"status":"available","collected_at":"${collectedAt}","semantic":"followers"}}}`,
    refreshAfter: at + defaultPolicy.freshForMs,
  });
  t.same(
    store.dueBefore(Number.MAX_SAFE_INTEGER, 10),
    [{ key, dueAt: at + defaultPolicy.freshForMs, event: 'REFRESH_DUE' }],
    'the old due entry is gone',
  );
  await resourceHost.send(key, { type: 'FAILED', at: at + 1, reason: 'HTTP 503', jitter: 0 });
  t.match(store.view(key)?.entryEnd, /^,"status":"stale","metrics":\{"followers"/);
  t.equal(store.view(key)?.refreshAfter, 0);
  t.same(
    store.dueBefore(Number.MAX_SAFE_INTEGER, 10).map((entry) => entry.event),
    ['RETRY_DUE'],
  );
  await resourceHost.send(key, { type: 'NOT_FOUND', at: at + 2 });
  t.same(store.view(key), { entryEnd: ',"status":"not_found"}', refreshAfter: 0 });
});

t.test('resource host - snapshots round-trip through LMDB and reopen unchanged', async (t) => {
  const dataDir = tempDataDir(t);
  const clock = { now: Date.UTC(2026, 10, 23) };
  const first = resourceHostOn(dataDir, clock);
  first.resourceHost.wanted([key], clock.now);
  await first.resourceHost.settled();
  await first.resourceHost.send(key, { type: 'COLLECTED', at: clock.now + 1, datapoints });
  await first.resourceHost.send(key, { type: 'FAILED', at: clock.now + 2, reason: 'timeout', jitter: 0.25 });
  const persisted = first.store.snapshot(key)!;
  await first.dbs.root.close();

  // The same history applied in memory, without LMDB, must give the same snapshot.
  const [pending] = initialTransition(machine, { createdAt: clock.now });
  const [available] = transition(machine, pending, { type: 'COLLECTED', at: clock.now + 1, datapoints });
  const [stale] = transition(machine, available, { type: 'FAILED', at: clock.now + 2, reason: 'timeout', jitter: 0.25 });

  const second = resourceHostOn(dataDir, clock);
  t.teardown(() => second.dbs.root.close());
  const reopened = second.store.snapshot(key)!;
  t.same(reopened, persisted);
  t.same(reopened, { value: stale.value, context: stale.context });
  const restored = machine.resolveState(reopened);
  const [next] = transition(machine, restored, { type: 'COLLECTED', at: clock.now + 3, datapoints });
  t.equal(next.value, 'available');
});

t.test('resource host - a search after the freshness window asks for an eager refresh (docs/api.md#a-22)', async (t) => {
  const clock = { now: Date.UTC(2026, 10, 23) };
  const { dbs, resourceHost, requested } = resourceHostOn(tempDataDir(t), clock);
  t.teardown(() => dbs.root.close());
  resourceHost.wanted([key], clock.now);
  await resourceHost.settled();
  await resourceHost.send(key, { type: 'COLLECTED', at: clock.now, datapoints });
  resourceHost.wanted([key], clock.now + defaultPolicy.freshForMs - 1);
  await resourceHost.settled();
  t.same(requested, [key], 'not due yet: the machine ignores the refresh');
  resourceHost.wanted([key], clock.now + defaultPolicy.freshForMs);
  await resourceHost.settled();
  t.same(requested, [key, key]);
});

t.test('resource host - a failing event is reported and does not block the next one', async (t) => {
  const clock = { now: Date.UTC(2026, 10, 23) };
  const { dbs, store, resourceHost, errors } = resourceHostOn(tempDataDir(t), clock);
  t.teardown(() => dbs.root.close());
  resourceHost.wanted([key], clock.now);
  await resourceHost.settled();
  const commit = store.commit.bind(store);
  store.commit = () => Promise.reject(new Error('disk full'));
  await resourceHost.send(key, { type: 'COLLECTED', at: clock.now, datapoints });
  await t.rejects(
    resourceHost.deliver(key, { kind: 'notFound' }),
    { message: 'disk full' },
    'an outcome sink rejects when it cannot record',
  );
  t.equal(errors.length, 1);
  t.equal((errors[0] as Error).message, 'disk full');
  store.commit = commit;
  await resourceHost.send(key, { type: 'COLLECTED', at: clock.now, datapoints });
  t.equal(store.snapshot(key)?.value, 'available');
  await resourceHost.send('github/account/never-seen', { type: 'COLLECTED', at: clock.now, datapoints });
  t.equal(store.snapshot('github/account/never-seen'), undefined, 'events for unknown resources are dropped');
});

t.test('resource host - on a server alone a due step holds its lease in memory, and the outcome commits both in one', async (t) => {
  const { clock, leases, store, resourceHost, requested, errors } = await hostWithMemoryLeases(t);
  await resourceHost.send(key, { type: 'COLLECTED', at: clock.now, datapoints });
  const collected = store.snapshotEntry(key)!;
  const dueAt = clock.now + defaultPolicy.freshForMs;
  const commits = countCommits(store);

  clock.now = dueAt + 5;
  await resourceHost.send(key, { type: 'REFRESH_DUE', at: clock.now });
  t.same(requested, [key, key], 'the collection is asked for');
  t.equal(commits.count, 0, 'nothing is committed for the lease');
  t.same(store.snapshotEntry(key), collected, 'the stored snapshot is the one before the lease');
  t.same(store.dueBefore(clock.now, 10), [{ key, dueAt, event: 'REFRESH_DUE' }], 'the due entry still says when it fell due');
  t.equal(leases.endsAt(key), clock.now + defaultPolicy.leaseMs, 'the lease is held in memory');
  resourceHost.wanted([key], clock.now);
  await resourceHost.send(key, { type: 'REFRESH_DUE', at: clock.now + 1 });
  t.same(requested, [key, key], 'a search or a second due event while it runs asks for nothing more');

  const outcomeAt = clock.now + 100;
  clock.now = outcomeAt;
  await resourceHost.deliver(key, { kind: 'found', datapoints });
  t.equal(commits.count, 1, 'one commit for the lease and the outcome');
  t.equal(store.snapshotEntry(key)!.version, collected.version + 2, 'the version counts both transitions');
  t.same(store.history(key).slice(-2), [
    { at: dueAt + 5, event: 'REFRESH_DUE', from: 'available', to: 'available' },
    { at: outcomeAt, event: 'COLLECTED', from: 'available', to: 'available' },
  ]);
  t.same(store.dueBefore(Number.MAX_SAFE_INTEGER, 10), [{ key, dueAt: outcomeAt + defaultPolicy.freshForMs, event: 'REFRESH_DUE' }]);
  t.equal(leases.endsAt(key), undefined, 'the commit ended the lease');
  t.same(errors, []);
});

t.test("resource host - a lease held in memory gives way to another writer's change, and the outcome applies to that", async (t) => {
  const { clock, leases, store, resourceHost, errors } = await hostWithMemoryLeases(t);
  clock.now += defaultPolicy.leaseMs;
  await resourceHost.send(key, { type: 'RETRY_DUE', at: clock.now });
  t.ok(leases.holds(key, clock.now), 'leased');

  const theirs = availableResource(99, clock.now);
  t.ok(await commitResource(store, { key, base: store.snapshotEntry(key), next: theirs, cause: { event: 'COLLECTED', at: clock.now } }));
  clock.now += 1_000;
  await resourceHost.deliver(key, { kind: 'notFound' });
  t.equal(store.snapshot(key)?.value, 'not_found');
  t.equal(store.snapshotEntry(key)!.version, 3, 'creation, their change, this outcome: the lease over the old snapshot is not recorded');
  t.same(
    store.history(key).map((transition) => transition.event),
    ['CREATED', 'COLLECTED', 'NOT_FOUND'],
  );
  t.equal(leases.endsAt(key), undefined);
  t.same(errors, []);
});

t.test('resource host - a clean stop drops a lease held in memory without a commit: the resource is due as it was', async (t) => {
  const { clock, leases, store, resourceHost, requested } = await hostWithMemoryLeases(t);
  const retryAt = clock.now + defaultPolicy.leaseMs;
  clock.now = retryAt;
  await resourceHost.send(key, { type: 'RETRY_DUE', at: clock.now });
  const commits = countCommits(store);
  await resourceHost.abandoned(key);
  t.equal(commits.count, 0);
  t.equal(leases.endsAt(key), undefined);
  t.same(store.dueBefore(clock.now, 10), [{ key, dueAt: retryAt, event: 'RETRY_DUE' }]);
  await resourceHost.send(key, { type: 'RETRY_DUE', at: clock.now });
  t.same(requested, [key, key, key], 'the next due event leases it again');
});
