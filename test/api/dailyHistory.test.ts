// The daily JSON answer assembled from each resource's rendered days (docs/history.md#daily-answers-from-text):
// the same text as the answer rendered from the points, for every range, after a commit changes
// the resource and after the roll-up packs its loose points; a range it cannot cut from whole
// days is left to the points.
import t, { type Test } from 'tap';
import { transition } from 'xstate';
import { createResourceMachine } from '../../machines/resource.js';
import { DailyHistory } from '../../src/api/dailyHistory.js';
import { validateHistoryText } from '../../src/api/historyRequest.js';
import { historyJson, historyOf } from '../../src/api/historyResponse.js';
import { defaultPolicy } from '../../src/config.js';
import { openDatabases } from '../../src/store/environment.js';
import { ResourceStore, type StoredResource } from '../../src/store/resourceStore.js';
import { SeriesRollUp } from '../../src/store/seriesRollUp.js';
import { tempDataDir } from '../helpers/service.js';
import { commitResource, pendingResource } from '../store/resourceFixtures.js';

const machine = createResourceMachine(defaultPolicy);
const key = 'github/account/octocat';
const octocat = { platform: 'github', type: 'account', identifier: 'octocat' };
const unknown = { platform: 'github', type: 'account', identifier: 'nobody' };
const hour = 3_600_000;

function collected(
  previous: StoredResource,
  at: number,
  followers: number,
  verified: boolean,
  following: number | 'absent' = 7,
): StoredResource {
  const [next] = transition(machine, machine.resolveState(previous), {
    type: 'COLLECTED',
    at,
    datapoints: {
      metrics: {
        followers: { value: followers, semantic: 'followers' },
        ...(following === 'absent' ? {} : { following: { value: following, semantic: 'following' } }),
      },
      attributes: { verified: { value: verified, semantic: 'verified' } },
    },
  });
  return { value: 'available', context: next.context };
}

/** The octocat collected on five days in two months, once without a change. */
async function collectedStore(t: Test) {
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  const store = new ResourceStore(dbs, { detailMs: 7 * 24 * hour, days: 60 });
  let resource = pendingResource();
  await commitResource(store, { key, next: resource });
  let version = 1;
  const collect = async (at: number, followers: number, verified: boolean, following?: number | 'absent') => {
    const next = collected(resource, at, followers, verified, following);
    t.equal(await commitResource(store, { key, base: { version, resource }, next }), true);
    resource = next;
    version++;
  };
  await collect(Date.UTC(2026, 9, 20, 10), 10, true);
  await collect(Date.UTC(2026, 9, 20, 15), 12, true);
  await collect(Date.UTC(2026, 9, 25, 9), 15, true);
  await collect(Date.UTC(2026, 10, 2, 8), 15, true);
  await collect(Date.UTC(2026, 10, 3, 12), 20, false);
  return { dbs, store, collect };
}

function answers(store: ResourceStore, days: DailyHistory, body: Record<string, unknown>, now: number) {
  const validation = validateHistoryText(JSON.stringify({ resources: [octocat, unknown], ...body }), now, store.series);
  if (!validation.ok) throw new Error(validation.errors.join('; '));
  const fromPoints = historyOf(validation.request, store, store.series, now);
  // The answer's bytes are a view of a buffer the next answer reuses: decoded at once.
  const fromText = days.answer(validation.request, store, now);
  return {
    fromText: fromText && { body: fromText.body.toString(), wanted: fromText.wanted },
    fromPoints: { body: historyJson(fromPoints.entries), wanted: fromPoints.wanted },
  };
}

const ranges: Array<Record<string, unknown>> = [
  {},
  { from: '2026-10-01' },
  { from: '2026-10-21' },
  { from: '2026-10-20T16:00:00Z', to: '2026-10-31' },
  { from: '2026-10-25T10:00:00Z', to: '2026-11-02' },
  { from: '2026-11-04' },
  { from: '2026-10-01', to: '2026-10-19' },
  { from: '2026-10-01', to: '2026-11-05T13:00:00Z' },
  { from: '2026-11-05T11:00:00Z' },
];

t.test('daily history - the same answer as from the points, for every range, before and after a commit and a roll-up', async (t) => {
  const { dbs, store, collect } = await collectedStore(t);
  const days = new DailyHistory(store.series);
  let now = Date.UTC(2026, 10, 5, 12);
  for (const range of ranges) {
    const { fromText, fromPoints } = answers(store, days, range, now);
    t.same(fromText, fromPoints, `${JSON.stringify(range)}`);
  }
  const { fromText } = answers(store, days, { from: '2026-10-20', to: '2026-10-21' }, now);
  t.same(JSON.parse(fromText!.body).data, [
    {
      ...octocat,
      status: 'available',
      metrics: {
        followers: {
          series: [
            { at: '2026-10-20', value: 12 },
            { at: '2026-10-21', value: 12 },
          ],
          first: 12,
          last: 12,
          change: 0,
        },
        following: {
          series: [
            { at: '2026-10-20', value: 7 },
            { at: '2026-10-21', value: 7 },
          ],
          first: 7,
          last: 7,
          change: 0,
        },
      },
      attributes: {
        verified: {
          series: [
            { at: '2026-10-20', value: true },
            { at: '2026-10-21', value: true },
          ],
          first: true,
          last: true,
          change: null,
        },
      },
    },
    { ...unknown, status: 'pending' },
  ]);

  await collect(Date.UTC(2026, 10, 5, 10), 25, false);
  const afterCommit = answers(store, days, { from: '2026-11-03' }, now);
  t.same(afterCommit.fromText, afterCommit.fromPoints, "a commit's new point is in the next answer");
  t.match(JSON.parse(afterCommit.fromText!.body).data[0].metrics.followers, { last: 25, change: 5 });

  now = Date.UTC(2026, 10, 6, 1);
  t.equal(await new SeriesRollUp(dbs, store.series, () => now).slice(), true);
  t.equal([...dbs.loosePoints.getRange()].length, 0, 'every loose point packed');
  for (const range of ranges) {
    const { fromText, fromPoints } = answers(store, days, range, now);
    t.same(fromText, fromPoints, `after the roll-up: ${JSON.stringify(range)}`);
  }
});

t.test('daily history - a range that ends inside a day before the series was last seen is left to the points', async (t) => {
  const { store } = await collectedStore(t);
  const days = new DailyHistory(store.series);
  const { fromText, fromPoints } = answers(store, days, { from: '2026-10-01', to: '2026-10-20T12:00:00Z' }, Date.UTC(2026, 10, 5, 12));
  t.equal(fromText, undefined);
  t.same(
    JSON.parse(fromPoints.body).data[0].metrics.followers.series,
    [{ at: '2026-10-20', value: 10 }],
    'the value at 12:00, not the day’s last',
  );
});

t.test('daily history - a datapoint the snapshot no longer has answers as from the points', async (t) => {
  const { store, collect } = await collectedStore(t);
  await collect(Date.UTC(2026, 10, 4, 9), 21, false, 8);
  // The platform stops giving `following`: its series ends at its last point.
  await collect(Date.UTC(2026, 10, 5, 9), 22, false, 'absent');
  const days = new DailyHistory(store.series);
  const now = Date.UTC(2026, 10, 5, 12);
  const inside = answers(store, days, { from: '2026-10-20', to: '2026-11-03' }, now);
  t.equal(inside.fromText, undefined, 'a range ending before its last point is left to the points');
  t.same(
    JSON.parse(inside.fromPoints.body).data[0].metrics.following.series.map((day: { at: string }) => day.at),
    ['2026-10-20'],
    'where it ends at its last point up to the range',
  );
  const { fromText, fromPoints } = answers(store, days, { from: '2026-10-20' }, now);
  t.same(fromText, fromPoints, 'a range past its last point is cut from the text');
  t.same(JSON.parse(fromText!.body).data[0].metrics.following.series.at(-1), { at: '2026-11-04', value: 8 });
});

t.test('daily history - an entry asked for again is copied whole, echoing each reference as sent, until a commit', async (t) => {
  const { store, collect } = await collectedStore(t);
  const days = new DailyHistory(store.series);
  const now = Date.UTC(2026, 10, 5, 12);
  const spelled = { ...octocat, identifier: 'OctoCat' };
  const ask = (resources: unknown[]) => {
    const validation = validateHistoryText(JSON.stringify({ resources, from: '2026-10-20' }), now, store.series);
    if (!validation.ok) throw new Error(validation.errors.join('; '));
    const fromPoints = historyJson(historyOf(validation.request, store, store.series, now).entries);
    return { fromText: days.answer(validation.request, store, now)!.body.toString(), fromPoints };
  };
  const first = ask([octocat]);
  t.equal(first.fromText, first.fromPoints);
  t.equal(ask([octocat]).fromText, first.fromText, 'the same days again: the same bytes');
  const both = ask([octocat, spelled, octocat]);
  t.equal(both.fromText, both.fromPoints, 'one resource asked as two spellings: each entry echoes its own');
  t.same(
    JSON.parse(both.fromText).data.map((entry: { identifier: string }) => entry.identifier),
    ['octocat', 'OctoCat'],
  );
  await collect(Date.UTC(2026, 10, 5, 10), 25, false);
  const after = ask([octocat]);
  t.equal(after.fromText, after.fromPoints, 'after a commit the entry is written from the new days');
  t.equal(JSON.parse(after.fromText).data[0].metrics.followers.last, 25);
});
