// The upgrade of a format-3 data directory, whose commits appended their points to their months, to
// format 4, whose commits write loose entries that the roll-up packs (docs/storage.md#upgrading-a-data-directory,
// docs/history.md#layout).
import t from 'tap';
import { openDatabases } from '../../src/store/environment.js';
import { currentFormat } from '../../src/store/formatVersion.js';
import { ResourceStore } from '../../src/store/resourceStore.js';
import { tempDataDir } from '../helpers/service.js';

const octocat = 'github/account/octocat';
const september = Date.UTC(2026, 8, 1);

t.test('upgrade - a format-3 directory opens as format 4 with its months as they were', async (t) => {
  const dataDir = tempDataDir(t);
  const created = openDatabases(dataDir);
  await created.root.transaction(() => {
    void created.series.put(
      [octocat, 'metrics', 'followers', september],
      [
        [1_000, 2_000],
        [10, 11],
      ],
    );
    void created.meta.put('formatVersion', 3);
  });
  await created.root.close();

  const dbs = openDatabases(dataDir);
  t.teardown(() => dbs.root.close());
  t.equal(currentFormat, 4);
  t.equal(dbs.meta.get('formatVersion'), 4);
  t.same(
    [...dbs.series.getRange()].map(({ key, value }) => [key, value]),
    [
      [
        [octocat, 'metrics', 'followers', september],
        [
          [1_000, 2_000],
          [10, 11],
        ],
      ],
    ],
  );
  t.same(new ResourceStore(dbs).series.read(octocat, 0, Number.MAX_SAFE_INTEGER), [
    {
      group: 'metrics',
      name: 'followers',
      before: undefined,
      points: [
        { at: september + 1_000, value: 10 },
        { at: september + 2_000, value: 11 },
      ],
    },
  ]);
});
