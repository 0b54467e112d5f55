// The LMDB record of units in hand (src/seams/reservedUnits/reservedUnits.ts) passes the seam's contract: a node
// alone records and reads in one place.
import t from 'tap';
import { reservedUnitsContract } from '../../src/seams/reservedUnits/reservedUnits.contract.js';
import { openDatabases } from '../../src/store/environment.js';
import { ReservedUnits } from '../../src/seams/reservedUnits/reservedUnits.js';
import { tempDataDir } from '../helpers/service.js';

reservedUnitsContract(t, 'reserved units, LMDB', async (t) => {
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  const units = new ReservedUnits(dbs);
  return { recorder: units, reader: units, shared: async () => undefined };
});
