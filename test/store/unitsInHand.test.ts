// The LMDB record of units in hand (src/store/reservedUnits.ts) passes the seam's contract: a node
// alone records and reads in one place.
import t from 'tap';
import { unitsInHandContract } from '../../src/seams/unitsInHand/unitsInHand.contract.js';
import { openDatabases } from '../../src/store/environment.js';
import { ReservedUnits } from '../../src/store/reservedUnits.js';
import { tempDataDir } from '../helpers/service.js';

unitsInHandContract(t, 'units in hand, LMDB', async (t) => {
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  const units = new ReservedUnits(dbs);
  return { recorder: units, reader: units, shared: async () => undefined };
});
