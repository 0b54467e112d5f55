// Datapoint history recorded by the resource store's commits (docs/history.md#what-is-recorded):
// a point exactly when its commit is written, an unchanged value writes nothing, and a replica
// records what it applies from the cluster's log.
import t, { type Test } from 'tap';
import { transition } from 'xstate';
import { createResourceMachine, dueEventFor } from '../../machines/resource.js';
import { defaultPolicy } from '../../src/config.js';
import { openDatabases } from '../../src/store/environment.js';
import { InProcessResourceLog } from '../../src/seams/resourceLog/resourceLog.js';
import { ResourceReplica } from '../../src/store/resourceReplica.js';
import { ResourceStore, type StoredResource } from '../../src/store/resourceStore.js';
import { tempDataDir } from '../helpers/service.js';
import { at, commitResource, pendingResource, viewOf } from './resourceFixtures.js';

const key = 'github/account/octocat';
const machine = createResourceMachine(defaultPolicy);

/** `previous` collected again at `collectedAt`, with these counts. */
function collected(previous: StoredResource, collectedAt: number, followers: number, verified = true): StoredResource {
  const [next] = transition(machine, machine.resolveState(previous), {
    type: 'COLLECTED',
    at: collectedAt,
    datapoints: {
      metrics: { followers: { value: followers, semantic: 'followers' } },
      attributes: { verified: { value: verified, semantic: 'verified' } },
    },
  });
  return { value: 'available', context: next.context };
}

function openStore(t: Test, history?: { detailMs: number; days: number }) {
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  return { dbs, store: new ResourceStore(dbs, history) };
}

t.test('history - a commit records its collected values; an unchanged value records nothing', async (t) => {
  const { store } = openStore(t);
  const created = pendingResource();
  await commitResource(store, { key, next: created });
  t.same(store.series.read(key, 0, Number.MAX_SAFE_INTEGER), [], 'a creation collected nothing');
  const first = collected(created, at + 1_000, 10);
  t.equal(await commitResource(store, { key, base: { version: 1, resource: created }, next: first }), true);
  const same = collected(first, at + 2_000, 10);
  t.equal(await commitResource(store, { key, base: { version: 2, resource: first }, next: same }), true);
  const moved = collected(same, at + 3_000, 12);
  t.equal(await commitResource(store, { key, base: { version: 3, resource: same }, next: moved }), true);
  t.same(store.series.read(key, 0, Number.MAX_SAFE_INTEGER), [
    {
      group: 'metrics',
      name: 'followers',
      before: undefined,
      points: [
        { at: at + 1_000, value: 10 },
        { at: at + 3_000, value: 12 },
      ],
    },
    { group: 'attributes', name: 'verified', before: undefined, points: [{ at: at + 1_000, value: true }] },
  ]);
});

t.test('history - a failed conditional commit records nothing', async (t) => {
  const { store } = openStore(t);
  const created = pendingResource();
  await commitResource(store, { key, next: created });
  t.equal(await commitResource(store, { key, base: { version: 1, resource: created }, next: collected(created, at + 1_000, 10) }), true);
  t.equal(
    await commitResource(store, { key, base: { version: 1, resource: created }, next: collected(created, at + 2_000, 99) }),
    false,
    'computed from a replaced version',
  );
  t.same(store.series.read(key, 0, Number.MAX_SAFE_INTEGER)[0]!.points, [{ at: at + 1_000, value: 10 }]);
});

t.test('history - a failure commits without a point; the range read carries the value in force', async (t) => {
  const { store } = openStore(t);
  const created = pendingResource();
  await commitResource(store, { key, next: created });
  const first = collected(created, at + 1_000, 10);
  await commitResource(store, { key, base: { version: 1, resource: created }, next: first });
  const [failed] = transition(machine, machine.resolveState(first), { type: 'FAILED', at: at + 2_000, reason: 'timeout', jitter: 0 });
  const stale = { value: failed.value as StoredResource['value'], context: failed.context };
  t.equal(await commitResource(store, { key, base: { version: 2, resource: first }, next: stale }), true);
  const later = collected(stale, at + 5_000, 11);
  await commitResource(store, { key, base: { version: 3, resource: stale }, next: later });
  const [followers] = store.series.read(key, at + 2_000, at + 9_000);
  t.same(followers, {
    group: 'metrics',
    name: 'followers',
    before: { at: at + 1_000, value: 10 },
    points: [{ at: at + 5_000, value: 11 }],
  });
});

t.test('history - --history-days 0 records nothing', async (t) => {
  const { store } = openStore(t, { detailMs: 86_400_000, days: 0 });
  const created = pendingResource();
  await commitResource(store, { key, next: created });
  await commitResource(store, { key, base: { version: 1, resource: created }, next: collected(created, at + 1_000, 10) });
  t.same(store.series.read(key, 0, Number.MAX_SAFE_INTEGER), []);
});

t.test('history - a replica records the changes it applies from the log, once each', async (t) => {
  const { store } = openStore(t);
  const created = pendingResource();
  const first = collected(created, at + 1_000, 10);
  const change = (resource: StoredResource, revision: number) => ({
    key,
    revision,
    resource,
    view: viewOf(resource),
    event: dueEventFor[resource.value],
  });
  const replica = ResourceReplica.of(store, new InProcessResourceLog());
  t.equal(await replica.applyLogged(change(created, 4), true), true);
  t.equal(await replica.applyLogged(change(first, 9), true), true);
  t.equal(await replica.applyLogged(change(first, 9), true), false, 'a change applied again is not newer');
  t.same(store.series.read(key, 0, Number.MAX_SAFE_INTEGER)[0]!.points, [{ at: at + 1_000, value: 10 }]);
});
