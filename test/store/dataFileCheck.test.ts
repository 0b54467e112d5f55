// The look at the data file before LMDB maps it (docs/storage.md#damaged-data-file): a file a
// real store wrote passes, every damaged one is refused with what is wrong, a missing one is a
// new store. What the commands print of it: test/store/damagedDataFile.system.test.ts.
import { closeSync, copyFileSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { checkDataFile, DamagedDataFile } from '../../src/store/dataFileCheck.js';
import { openDatabases } from '../../src/store/environment.js';
import { tempDataDir } from '../helpers/service.js';
import { damages, dataFile, writeStore } from './damagedDataFiles.js';

t.test('data file check - a file a real store wrote passes, before and after more writes', async (t) => {
  const dataDir = tempDataDir(t);
  t.doesNotThrow(() => checkDataFile(dataFile(dataDir)), 'no file yet: a new store');
  await writeStore(dataDir);
  t.doesNotThrow(() => checkDataFile(dataFile(dataDir)));
  const dbs = openDatabases(dataDir);
  await dbs.accounts.remove('account-1');
  await dbs.root.close();
  t.doesNotThrow(() => checkDataFile(dataFile(dataDir)), 'reopened and written again');
});

t.test('data file check - every kind of damage is refused, saying what was found', async (t) => {
  const intact = tempDataDir(t);
  await writeStore(intact);
  for (const { name, damage, says } of damages) {
    const file = join(tempDataDir(t), 'datapoints.mdb');
    copyFileSync(dataFile(intact), file);
    damage(file);
    const refusal = t.throws(() => checkDataFile(file), name) as unknown;
    t.ok(refusal instanceof DamagedDataFile, `${name}: a DamagedDataFile`);
    t.match(
      (refusal as Error).message,
      typeof says === 'string' ? `datapoints.mdb ${says}` : new RegExp(`^datapoints\\.mdb ${says.source.slice(1)}`),
      name,
    );
  }
});

t.test('data file check - a meta page of another LMDB version or page size is refused', async (t) => {
  const intact = tempDataDir(t);
  await writeStore(intact);
  const altered = (offset: number, value: number) => {
    const file = join(tempDataDir(t), 'datapoints.mdb');
    copyFileSync(dataFile(intact), file);
    const field = Buffer.alloc(4);
    field.writeUInt32LE(value);
    const fd = openSync(file, 'r+');
    writeSync(fd, field, 0, field.length, offset);
    closeSync(fd);
    return file;
  };
  // The meta fields as mdb.c lays them out: the version at byte 28, the page size at byte 48.
  const cases = [
    { at: 28, value: 3, says: 'datapoints.mdb is not an LMDB data file: its first meta page has LMDB data version 3, not 2' },
    { at: 48, value: 3000, says: 'datapoints.mdb is not an LMDB data file: its first meta page names a page size of 3000 bytes' },
    { at: 24, value: 0xdeadbeef, says: "datapoints.mdb is not an LMDB data file: its first meta page lacks LMDB's magic number" },
  ];
  for (const { at, value, says } of cases) {
    const file = altered(at, value);
    t.throws(() => checkDataFile(file), new DamagedDataFile(says));
  }
});
