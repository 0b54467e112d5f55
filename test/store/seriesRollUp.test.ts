// The roll-up of old detail into UTC days and of days past the retention (docs/history.md#roll-up),
// on an injected clock: exact boundaries at UTC midnight, the detail edge and the retention edge,
// a month past the retention as a whole, and passes cut into slices of months.
import t, { type Test } from 'tap';
import { DatapointSeries, type DatapointGroup } from '../../src/store/datapointSeries.js';
import { openDatabases } from '../../src/store/environment.js';
import { SeriesRollUp } from '../../src/store/seriesRollUp.js';
import { tempDataDir } from '../helpers/service.js';

const hour = 3_600_000;
const day = 24 * hour;
const dayStart = (n: number) => Date.UTC(2026, 10, n);

/** A point as [resource, group, datapoint, at]; its value is its time. */
type Point = [string, DatapointGroup, string, number];

async function rolledUp(t: Test, options: { points: Point[]; now: number; detailMs: number; days: number; slice: number }) {
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  const series = new DatapointSeries(dbs, { detailMs: options.detailMs, days: options.days });
  await dbs.root.transaction(() => {
    for (const [key, group, name, at] of options.points) series.append(key, group, name, { at, value: at });
  });
  const rollUp = new SeriesRollUp(dbs, series, () => options.now);
  let slices = 1;
  while (!(await rollUp.slice(options.slice))) slices++;
  const kept: Point[] = [];
  for (const { key, value } of dbs.series.getRange()) {
    const [resource, group, name, month] = key;
    value[0].forEach((offset, index) => {
      t.equal(value[1][index], month + offset, 'each point keeps its value');
      kept.push([resource, group, name, month + offset]);
    });
  }
  return { kept, slices };
}

const point = (name: string, at: number): Point => ['github/account/octocat', 'metrics', name, at];

t.test('roll-up - detail older than its window keeps each UTC day its last point', async (t) => {
  const points = [
    point('followers', dayStart(1) + 10 * hour),
    point('followers', dayStart(2) - 1),
    point('followers', dayStart(2)),
    point('followers', dayStart(2) + 11 * hour),
    point('followers', dayStart(2) + 13 * hour),
    point('followers', dayStart(3) + 1 * hour),
  ];
  const { kept } = await rolledUp(t, { points, now: dayStart(3) + 12 * hour, detailMs: day, days: 400, slice: 64 });
  t.same(
    kept,
    [point('followers', dayStart(2) - 1), point('followers', dayStart(2) + 13 * hour), point('followers', dayStart(3) + 1 * hour)],
    "the last millisecond before midnight is its day's last; the day the detail edge cuts keeps its last point, inside the detail",
  );
});

t.test('roll-up - points past the retention go, except the one in force at its edge', async (t) => {
  const points = [
    point('followers', Date.UTC(2026, 8, 30)),
    point('followers', Date.UTC(2026, 9, 20)),
    point('followers', dayStart(5)),
    point('followers', dayStart(6)),
    point('followers', dayStart(8)),
    point('followers', dayStart(9)),
    point('following', dayStart(5)),
    point('following', dayStart(6) + 5 * hour),
    point('likes', dayStart(7) + 23 * hour),
  ];
  const { kept, slices } = await rolledUp(t, { points, now: dayStart(10) + 12 * hour, detailMs: day, days: 2, slice: 1 });
  t.same(
    kept,
    [
      point('followers', dayStart(8)),
      point('followers', dayStart(9)),
      point('following', dayStart(6) + 5 * hour),
      point('likes', dayStart(7) + 23 * hour),
    ],
    'a point on the edge itself stands for the one before it, also in a month before; a flat series keeps its last value',
  );
  t.equal(slices, 6, 'five months of series in slices of one, and the slice that finds the end');
});

t.test('roll-up - detail inside its window is untouched', async (t) => {
  const points = [point('followers', dayStart(3) + hour), point('followers', dayStart(3) + 2 * hour)];
  const { kept } = await rolledUp(t, { points, now: dayStart(3) + 3 * hour, detailMs: 2 * hour + 1, days: 400, slice: 1 });
  t.same(kept, points);
});

t.test('roll-up - loose points are packed once their day is over or they are older than the detail window, in slices', async (t) => {
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  const series = new DatapointSeries(dbs, { detailMs: 2 * hour, days: 400 });
  const loose: Array<[string, number]> = [];
  for (let index = 0; index < 20; index++) loose.push([`github/account/user${String(index).padStart(2, '0')}`, dayStart(2) + 23 * hour]);
  loose.push(['github/account/yours', dayStart(3) + 9 * hour], ['github/account/yours', dayStart(3) + 11 * hour]);
  await dbs.root.transaction(() => {
    for (const [key, at] of loose) void dbs.loosePoints.put([key, at], [['metrics', 'followers', at]]);
  });
  const rollUp = new SeriesRollUp(dbs, series, () => dayStart(3) + 12 * hour);
  let slices = 1;
  while (!(await rollUp.slice(64))) slices++;
  t.equal(slices, 2, '22 loose entries in slices of 16, and the months in the second');
  t.same(
    [...dbs.loosePoints.getKeys()],
    [['github/account/yours', dayStart(3) + 11 * hour]],
    'only the point inside the detail window of a day not over stays loose',
  );
  t.same(
    [...dbs.series.getRange()].map(({ key, value }) => [key[0], key[3] + value[0][0]!, value[1][0]]),
    loose.slice(0, -1).map(([key, at]) => [key, at, at]),
    'every other one is in its month',
  );
});

t.test("roll-up - a resource's loose points of one month are added to it together, in time order", async (t) => {
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  const series = new DatapointSeries(dbs, { detailMs: 30 * day, days: 400 });
  const key = 'github/account/octocat';
  await dbs.root.transaction(() => {
    series.append(key, 'metrics', 'followers', { at: dayStart(2), value: 1 });
    series.append(key, 'metrics', 'followers', { at: dayStart(4), value: 3 });
    void dbs.loosePoints.put([key, dayStart(3)], [['metrics', 'followers', 2]]);
    void dbs.loosePoints.put([key, dayStart(4)], [['metrics', 'followers', 4]]);
    void dbs.loosePoints.put([key, dayStart(5)], [['metrics', 'followers', 5]]);
    void dbs.loosePoints.put([key, Date.UTC(2026, 11, 1)], [['metrics', 'followers', 6]]);
  });
  t.equal(await new SeriesRollUp(dbs, series, () => Date.UTC(2026, 11, 2)).slice(), true);
  t.same(
    [...dbs.series.getRange()].map(({ key, value }) => [key[3], value]),
    [
      [Date.UTC(2026, 10, 1), [[1, 2, 3, 4].map((n) => dayStart(n + 1) - Date.UTC(2026, 10, 1)), [1, 2, 4, 5]]],
      [Date.UTC(2026, 11, 1), [[0], [6]]],
    ],
    'between the packed points, one at a packed millisecond replacing it, and a point of the next month in its own',
  );
});
