// The dashboard's records in a node's LMDB pass the WebRecords contract; sign-in attempts made at
// once from several threads, each with its own handle as edge threads have, pass on distinct counts.
import { Worker } from 'node:worker_threads';
import t from 'tap';
import { AccountStore } from '../../src/store/accountStore.js';
import { openDatabases } from '../../src/store/environment.js';
import { type AttemptReservation, WebStore } from '../../src/seams/webRecords/webStore.js';
import { tempDataDir } from '../helpers/service.js';
import { attemptRule, countsSeen, raceAttempts, webRecordsContract } from '../../src/seams/webRecords/webRecords.contract.js';

webRecordsContract(t, 'LMDB', async (t) => {
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  const store = new WebStore(dbs);
  return {
    records: store,
    store,
    addAccount: async (name) => {
      await new AccountStore(dbs).createAccount({
        name,
        plan: 'free',
        quota: 100,
        rate: { limit: 10, windowMs: 60_000 },
        createdAt: '2026-11-01T00:00:00.000Z',
      });
    },
  };
});

t.test('LMDB - attempts raced from three threads and this one, each with its own handle, pass on distinct counts', async (t) => {
  const dataDir = tempDataDir(t);
  const dbs = openDatabases(dataDir);
  t.teardown(() => dbs.root.close());
  const perThread = attemptRule.attempts / 3;
  const threads = Array.from({ length: 3 }, () => {
    const worker = new Worker(new URL('./attemptWorker.ts', import.meta.url), { workerData: { dataDir, count: perThread, now: 1_000 } });
    return new Promise<AttemptReservation[]>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  });
  const counted = (await Promise.all([raceAttempts(new WebStore(dbs), perThread, 1_000), ...threads])).flat();
  t.equal(counted.length, attemptRule.attempts + perThread);
  t.same(countsSeen(counted), [...Array(attemptRule.refuseAfter).keys()], 'as many counted as the rule allows, each on its own count');
});
