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
import { SeriesRollUp } from '../../src/store/seriesRollUp.js';
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

t.test(
  'history - a commit writes its changed values as one loose entry, which the roll-up packs into its months once its day is over',
  async (t) => {
    const { dbs, store } = openStore(t);
    const created = pendingResource();
    await commitResource(store, { key, next: created });
    const first = collected(created, at + 1_000, 10);
    await commitResource(store, { key, base: { version: 1, resource: created }, next: first });
    const moved = collected(first, at + 2_000, 12);
    await commitResource(store, { key, base: { version: 2, resource: first }, next: moved });
    t.same(
      [...dbs.loosePoints.getRange()].map(({ key, value }) => [key, value]),
      [
        [
          [key, at + 1_000],
          [
            ['metrics', 'followers', 10],
            ['attributes', 'verified', true],
          ],
        ],
        [[key, at + 2_000], [['metrics', 'followers', 12]]],
      ],
      'one entry a commit, holding only what changed; no month written',
    );
    t.equal([...dbs.series.getRange()].length, 0);
    const recorded = store.series.read(key, 0, Number.MAX_SAFE_INTEGER);

    let now = at + 3_000;
    const rollUp = new SeriesRollUp(dbs, store.series, () => now);
    t.equal(await rollUp.slice(), true, 'one slice passes over everything');
    t.equal([...dbs.loosePoints.getRange()].length, 2, "the day's points stay loose while it lasts");
    now = Date.UTC(2026, 10, 24);
    t.equal(await rollUp.slice(), true);
    t.equal([...dbs.loosePoints.getRange()].length, 0, 'packed after midnight');
    t.same(
      [...dbs.series.getRange()].map(({ key, value }) => [key, value]),
      [
        [
          [key, 'attributes', 'verified', Date.UTC(2026, 10, 1)],
          [[at + 1_000 - Date.UTC(2026, 10, 1)], [true]],
        ],
        [
          [key, 'metrics', 'followers', Date.UTC(2026, 10, 1)],
          [
            [at + 1_000 - Date.UTC(2026, 10, 1), at + 2_000 - Date.UTC(2026, 10, 1)],
            [10, 12],
          ],
        ],
      ],
    );
    t.same(store.series.read(key, 0, Number.MAX_SAFE_INTEGER), recorded, 'a read answers the same before and after');
  },
);

t.test('history - a read merges loose points with the packed months in time order', async (t) => {
  const { dbs, store } = openStore(t);
  await dbs.root.transaction(() => {
    store.series.append(key, 'metrics', 'followers', { at: at - 2_000, value: 1 });
    store.series.append(key, 'metrics', 'followers', { at: at + 2_000, value: 3 });
    store.series.append(key, 'metrics', 'likes', { at: at + 2_000, value: 30 });
    void dbs.loosePoints.put([key, at - 1_000], [['metrics', 'followers', 2]]);
    void dbs.loosePoints.put([key, at + 1_000], [['metrics', 'followers', 5]]);
    void dbs.loosePoints.put(
      [key, at + 2_000],
      [
        ['metrics', 'likes', 31],
        ['metrics', 'following', 7],
        ['attributes', 'verified', false],
      ],
    );
  });
  t.same(
    store.series.read(key, at, at + 5_000),
    [
      {
        group: 'metrics',
        name: 'followers',
        before: { at: at - 1_000, value: 2 },
        points: [
          { at: at + 1_000, value: 5 },
          { at: at + 2_000, value: 3 },
        ],
      },
      { group: 'metrics', name: 'following', before: undefined, points: [{ at: at + 2_000, value: 7 }] },
      { group: 'metrics', name: 'likes', before: undefined, points: [{ at: at + 2_000, value: 31 }] },
      { group: 'attributes', name: 'verified', before: undefined, points: [{ at: at + 2_000, value: false }] },
    ],
    'a loose point before the range opens it when it is the later; one at a packed millisecond replaces it',
  );
});
