// The dashboard's records in a node's LMDB pass the WebRecords contract.
import t from 'tap';
import { AccountStore } from '../../src/store/accountStore.js';
import { openDatabases } from '../../src/store/environment.js';
import { WebStore } from '../../src/seams/webRecords/webStore.js';
import { tempDataDir } from '../helpers/service.js';
import { webRecordsContract } from '../../src/seams/webRecords/webRecords.contract.js';

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
