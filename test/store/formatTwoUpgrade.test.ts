// The in-place upgrade of a format-2 data directory, whose history kept one entry per point, to
// the months of format 3 (docs/storage.md#upgrading-a-data-directory, docs/history.md#layout).
import t from 'tap';
import { openDatabases } from '../../src/store/environment.js';
import { entryCount } from '../../src/store/entryCount.js';
import { currentFormat } from '../../src/store/formatVersion.js';
import { ResourceStore } from '../../src/store/resourceStore.js';
import type { SeriesKey, SeriesValue } from '../../src/store/records.js';
import { tempDataDir } from '../helpers/service.js';

const octocat = 'github/account/octocat';
const hour = 3_600_000;
/** Points as format 2 kept them, [resource, group, datapoint, at] -> value: more than one chunk of the upgrade's read. */
function formatTwoPoints(): Array<[SeriesKey, SeriesValue]> {
  const points: Array<[SeriesKey, SeriesValue]> = [];
  const start = Date.UTC(2026, 8, 30, 20);
  for (let index = 0; index < 1_200; index++) points.push([[octocat, 'metrics', 'followers', start + index * hour], 100 + index]);
  points.push([[octocat, 'attributes', 'verified', start], true]);
  points.push([['youtube/channel/UC1', 'metrics', 'subscribers', Date.UTC(2026, 10, 1) - 1], null]);
  return points;
}

t.test('upgrade - a format-2 directory opens as format 3 with every history point, packed by month', async (t) => {
  const dataDir = tempDataDir(t);
  const points = formatTwoPoints();
  const created = openDatabases(dataDir);
  const old = created.root.openDB<SeriesValue, SeriesKey>({ name: 'series', keyEncoding: 'ordered-binary' });
  await created.root.transaction(() => {
    for (const [key, value] of points) void old.put(key, value);
    void created.meta.put('formatVersion', 2);
  });
  await created.root.close();

  const dbs = openDatabases(dataDir);
  t.teardown(() => dbs.root.close());
  t.equal(dbs.meta.get('formatVersion'), currentFormat);
  t.equal(entryCount(dbs.root.openDB({ name: 'series' })), 0, 'the entry per point is gone');
  t.same(
    [...dbs.series.getKeys()].map(([resource, group, name, month]) => `${resource} ${group} ${name} ${new Date(month).toISOString()}`),
    [
      `${octocat} attributes verified 2026-09-01T00:00:00.000Z`,
      `${octocat} metrics followers 2026-09-01T00:00:00.000Z`,
      `${octocat} metrics followers 2026-10-01T00:00:00.000Z`,
      `${octocat} metrics followers 2026-11-01T00:00:00.000Z`,
      'youtube/channel/UC1 metrics subscribers 2026-10-01T00:00:00.000Z',
    ],
    'one entry per series and UTC month',
  );
  const store = new ResourceStore(dbs);
  const read = (key: string) =>
    store.series
      .read(key, 0, Number.MAX_SAFE_INTEGER)
      .flatMap(({ group, name, points }) => points.map(({ at, value }) => [[key, group, name, at], value]));
  t.same(
    [...read(octocat), ...read('youtube/channel/UC1')],
    [...points.slice(0, -2), points.at(-2), points.at(-1)],
    'every point, at its millisecond',
  );

  await dbs.root.close();
  const again = openDatabases(dataDir);
  t.equal(again.meta.get('formatVersion'), currentFormat, 'opening it again changes nothing');
  t.equal(entryCount(again.series), 5);
  await again.root.close();
});
