// Quota across real threads: worker_threads sharing one account table and one LMDB
// environment admit exactly the quota, however the requests are spread over them.
import { Worker } from 'node:worker_threads';
import t from 'tap';
import { AccountTable } from '../../src/access/accountTable.js';
import { monthOf } from '../../src/access/calendar.js';
import { openDatabases } from '../../src/store/environment.js';
import { UsageStore } from '../../src/seams/quotaLedger/usageStore.js';
import { tempDataDir } from '../helpers/service.js';

t.test('threads - 1,000 concurrent requests at quota 100 over 4 worker threads admit exactly 100', async (t) => {
  const dataDir = tempDataDir(t);
  const table = AccountTable.create(64);
  const workers = Array.from(
    { length: 4 },
    () =>
      new Worker(new URL('./admitWorker.ts', import.meta.url), {
        workerData: { buffer: table.buffer, dataDir, requests: 250, quota: 100 },
      }),
  );
  const exits = workers.map((worker) => new Promise((resolve) => worker.once('exit', resolve)));
  const reports = await Promise.all(
    workers.map(
      (worker) =>
        new Promise<Array<[string, string]>>((resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
        }),
    ),
  );
  t.same(await Promise.all(exits), [0, 0, 0, 0], 'every thread ended cleanly');
  const decisions = reports.flat();
  const admitted = decisions.filter(([kind]) => kind === 'admitted');
  t.equal(decisions.length, 1_000);
  t.equal(admitted.length, 100);
  t.equal(decisions.filter(([kind]) => kind === 'quotaExhausted').length, 900);
  t.same(
    admitted.map(([, remaining]) => Number(remaining)).sort((a, b) => a - b),
    Array.from({ length: 100 }, (_, index) => index),
  );
  const dbs = openDatabases(dataDir);
  t.equal(new UsageStore(dbs).used('tiny', monthOf(Date.now())), 100, 'the stored usage is the quota');
  await dbs.root.close();
});
