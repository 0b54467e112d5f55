// A thread of the sign-in race (test/web/webRecords.test.ts): its own handle on the data directory,
// as an edge thread has, making `count` attempts at once; it reports what each found.
import { parentPort, workerData } from 'node:worker_threads';
import { WebStore } from '../../src/seams/webRecords/webStore.js';
import { raceAttempts } from '../../src/seams/webRecords/webRecords.contract.js';
import { openDatabases } from '../../src/store/environment.js';

const { dataDir, count, now } = workerData as { dataDir: string; count: number; now: number };
const dbs = openDatabases(dataDir);
parentPort!.postMessage(await raceAttempts(new WebStore(dbs), count, now));
await dbs.root.close();
