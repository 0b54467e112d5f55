// An upgrade stopped at its worst moment (formatUpgrade.test.ts): every snapshot has been
// rewritten and format 2 is being recorded, inside the transaction, when this process says
// `copied` and waits there to be killed.
import { writeSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database } from 'lmdb';
import type { MetaDatabase } from '../../src/store/environment.js';
import { upgradeFormatOneToTwo } from '../../src/store/formatUpgrade.js';

const [dataDir] = process.argv.slice(2);
const root = open({ path: join(dataDir!, 'datapoints.mdb'), mapSize: 64 * 1024 ** 3, maxDbs: 16, cache: false });
const stored: Database = root.openDB({ name: 'meta' });
const meta: MetaDatabase = {
  get: (key) => stored.get(key),
  put(key, value) {
    const written = stored.put(key, value);
    writeSync(1, 'copied\n');
    // Blocks the thread, and with it the open write transaction, until the test kills it.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    return written;
  },
  remove: (key) => stored.remove(key),
};
upgradeFormatOneToTwo(root, meta, () => true);
