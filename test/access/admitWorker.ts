// A real thread of the quota test (test/access/threads.test.ts): admits `requests` requests
// of one account at once against the shared table and the LMDB ledger, and reports each
// decision with its X-Quota-Remaining.
import { parentPort, workerData } from 'node:worker_threads';
import { AccountTable } from '../../src/access/accountTable.js';
import { Admissions } from '../../src/access/admission.js';
import { silentLogger } from '../../src/log.js';
import { openDatabases } from '../../src/store/environment.js';
import { UsageStore } from '../../src/seams/quotaLedger/usageStore.js';
import { account, decided, header } from './admissionHarness.js';

const { buffer, dataDir, requests, quota } = workerData as { buffer: SharedArrayBuffer; dataDir: string; requests: number; quota: number };
const dbs = openDatabases(dataDir);
const admissions = new Admissions({ table: new AccountTable(buffer), ledger: new UsageStore(dbs), log: silentLogger, now: Date.now });
const record = account('tiny', quota);
const decisions = await Promise.all(Array.from({ length: requests }, () => decided(admissions.admit(record, Date.now()))));
parentPort!.postMessage(decisions.map((decision) => [decision.kind, header(decision, 'X-Quota-Remaining')]));
await dbs.root.close();
