// The data directory's format (docs/storage.md#format-version) and opening a directory
// without creating one (docs/storage.md#what-the-command-line-may-do-while-a-server-runs).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { DataDirectoryError } from '../../src/store/dataDirectoryError.js';
import { openDatabases } from '../../src/store/environment.js';
import { currentFormat } from '../../src/store/formatVersion.js';
import { tempDataDir } from '../helpers/service.js';

t.test('format version - a new data directory records the current format', async (t) => {
  t.equal(currentFormat, 4);
  const dataDir = tempDataDir(t);
  const dbs = openDatabases(dataDir);
  t.equal(dbs.meta.get('formatVersion'), currentFormat);
  await dbs.root.close();
  const reopened = openDatabases(dataDir, { create: false });
  t.equal(reopened.meta.get('formatVersion'), currentFormat, 'and opens again, also without creating');
  await reopened.root.close();
});

t.test('format version - a directory of a newer format is refused in one line', async (t) => {
  const dataDir = tempDataDir(t);
  const dbs = openDatabases(dataDir);
  await dbs.meta.put('formatVersion', 5);
  await dbs.root.close();
  t.throws(
    () => openDatabases(dataDir),
    new DataDirectoryError(
      `data directory ${dataDir} has format 5, this datapoints reads format 4; it was written by a newer datapoints: upgrade, or use another --data directory`,
    ),
  );
});

t.test('open without creating - a missing data directory is one line, and nothing is created', async (t) => {
  const parent = tempDataDir(t);
  const missing = join(parent, 'mistyped');
  t.throws(
    () => openDatabases(missing, { create: false }),
    new DataDirectoryError(`no data directory at ${missing} (start the server once, or pass --data)`),
  );
  t.equal(existsSync(missing), false, 'the directory was not created');
  const empty = join(parent, 'empty');
  mkdirSync(empty);
  t.throws(
    () => openDatabases(empty, { create: false }),
    new DataDirectoryError(`no data directory at ${empty} (start the server once, or pass --data)`),
  );
  t.equal(existsSync(join(empty, 'datapoints.mdb')), false, 'an existing directory without data gets no data file');
});

t.test('open without creating - an existing data directory opens and reads as written', async (t) => {
  const dataDir = tempDataDir(t);
  const dbs = openDatabases(dataDir);
  await dbs.usage.put(['acme', '2026-11'], 7);
  await dbs.root.close();
  const reopened = openDatabases(dataDir, { create: false });
  t.teardown(() => reopened.root.close());
  t.equal(reopened.usage.get(['acme', '2026-11']), 7);
});

t.test('open - a data directory that is a file, or lies under one, is one line', async (t) => {
  const file = join(tempDataDir(t), 'data');
  writeFileSync(file, 'not a directory');
  t.throws(
    () => openDatabases(file),
    new DataDirectoryError(`data directory ${file} is not a directory (it is a file, or lies under one): pass another --data`),
  );
  const under = join(file, 'sub');
  t.throws(
    () => openDatabases(under),
    new DataDirectoryError(`data directory ${under} is not a directory (it is a file, or lies under one): pass another --data`),
  );
});
