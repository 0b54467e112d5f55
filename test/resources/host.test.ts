// The virtual-actor host over a real LMDB store: snapshots round-trip, the due index
// follows the machine, and concurrent first demands start exactly one collection.
import t from 'tap';
import { initialTransition, transition } from 'xstate';
import { createResourceMachine } from '../../machines/resource.js';
import { defaultPolicy } from '../../src/config.js';
import { openDatabases } from '../../src/store/environment.js';
import { ResourceStore } from '../../src/store/resourceStore.js';
import { testResourceHost } from '../helpers/resourceHost.js';
import { tempDataDir } from '../helpers/service.js';

const machine = createResourceMachine(defaultPolicy);
const key = 'github/account/octocat';
const datapoints = { metrics: { followers: { value: 42, semantic: 'followers' } } };

function resourceHostOn(dataDir: string, clock: { now: number }) {
  const dbs = openDatabases(dataDir);
  const store = new ResourceStore(dbs);
  return { dbs, store, ...testResourceHost(store, { now: () => clock.now, machine, random: 0 }) };
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
