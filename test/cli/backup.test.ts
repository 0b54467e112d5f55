// `datapoints backup DIR` (docs/operations.md#backup): the targets it refuses, in process
// (runCli); the hot copy of a running server's store is test/cli/backup.system.test.ts's.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { cliInProcess as cli } from '../helpers/cli.js';
import { tempDataDir } from '../helpers/service.js';

t.test('backup - refuses a target that is not empty or is a file', async (t) => {
  const data = tempDataDir(t);
  await cli(['accounts', 'create', 'acme', '--data', data]);
  const full = tempDataDir(t);
  writeFileSync(join(full, 'keep.txt'), 'mine');
  const refused = await cli(['backup', full, '--data', data]);
  t.equal(refused.status, 2);
  t.equal(refused.stderr, `datapoints: backup target '${full}' is not empty; give a new or empty directory\n`);
  t.same(readdirSync(full), ['keep.txt'], 'nothing was written into it');
  const file = join(full, 'keep.txt');
  t.equal(
    (await cli(['backup', file, '--data', data])).stderr,
    `datapoints: backup target '${file}' is a file; give a new or empty directory\n`,
  );

  const empty = join(tempDataDir(t), 'empty');
  mkdirSync(empty);
  t.equal((await cli(['backup', empty, '--data', data])).status, 0, 'an empty directory is fine');
  t.equal(JSON.parse((await cli(['accounts', 'show', 'acme', '--data', empty])).stdout).name, 'acme');
});
