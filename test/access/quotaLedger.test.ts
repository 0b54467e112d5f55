// Every quota ledger passes the contract: LMDB (the server's) and the in-memory one the
// admission tests hold writes with.
import t from 'tap';
import { openDatabases } from '../../src/store/environment.js';
import { UsageStore } from '../../src/seams/quotaLedger/usageStore.js';
import { tempDataDir } from '../helpers/service.js';
import { MemoryLedger } from './memoryLedger.js';
import { quotaLedgerContract } from '../../src/seams/quotaLedger/quotaLedger.contract.js';

quotaLedgerContract(t, 'lmdb quota ledger', async (t) => {
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  return new UsageStore(dbs);
});

quotaLedgerContract(t, 'memory quota ledger', async () => new MemoryLedger());
