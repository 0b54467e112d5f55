// A damaged data file, as an operator meets it (docs/operations.md#damaged-data-file): `serve`
// and a command that reads the store end with exit 1 and the documented line, in real child
// processes, where LMDB mapping the file unchecked would end them with SIGBUS or SIGSEGV.
import { copyFileSync } from 'node:fs';
import t from 'tap';
import { checkDataFile } from '../../src/store/dataFileCheck.js';
import { cli } from '../helpers/cli.js';
import { tempDataDir } from '../helpers/service.js';
import { damages, dataFile, writeStore } from './damagedDataFiles.js';
import { serveRefused } from './refusedServe.js';

/** The one line of the documented refusal, around what the check says of this file (test/store/dataFileCheck.test.ts pins that). */
function refusal(dataDir: string): string {
  const found = t.throws(() => checkDataFile(dataFile(dataDir))) as Error;
  return (
    `datapoints: cannot open the data store in '${dataDir}': ${found.message}; ` +
    `restore it from a copy made by 'datapoints backup': stop the server, then move the copy's datapoints.mdb into '${dataDir}' or point --data at the copy\n`
  );
}

t.test('damaged data file - serve and accounts list refuse it with exit 1 and one line, never a signal', async (t) => {
  const intact = tempDataDir(t);
  await writeStore(intact);
  for (const { name, damage } of damages) {
    const dataDir = tempDataDir(t);
    copyFileSync(dataFile(intact), dataFile(dataDir));
    damage(dataFile(dataDir));
    const served = serveRefused(dataDir);
    t.equal(served.status, 1, `serve, ${name}: exit 1 (a signal leaves no status)`);
    t.equal(served.stderr, refusal(dataDir), `serve, ${name}`);
    const listed = cli(['accounts', 'list', '--data', dataDir]);
    t.same({ status: listed.status, stdout: listed.stdout }, { status: 1, stdout: '' }, `accounts list, ${name}`);
    t.equal(listed.stderr, refusal(dataDir), `accounts list, ${name}`);
  }
});

t.test('damaged data file - accounts create does not start a new store over an empty file', async (t) => {
  const dataDir = tempDataDir(t);
  await writeStore(dataDir);
  damages.find((kind) => kind.name === 'empty')!.damage(dataFile(dataDir));
  const created = cli(['accounts', 'create', 'acme', '--data', dataDir]);
  t.equal(created.status, 1);
  t.equal(created.stderr, refusal(dataDir));
});
