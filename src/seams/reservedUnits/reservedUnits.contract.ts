// What every record of units in hand must do (docs/operations.md#usage-shown), run against each
// implementation: the LMDB record of a node alone, and the cluster's, where one node's record is
// read on another once shared. `shared()` waits until what was recorded has reached the reader.
import type { Test } from 'tap';
import type { ReservedUnitsRecord } from './reservedUnits.js';

export interface ReservedUnitsHarness {
  /** Where a server records what it holds. */
  recorder: ReservedUnitsRecord;
  /** Where displays read: the same record alone, another node's in a cluster. */
  reader: ReservedUnitsRecord;
  /** Resolves once the reader shows `units` for `account` in `month`. */
  shared(account: string, month: string, units: number): Promise<void>;
}

export function reservedUnitsContract(t: Test, name: string, open: (t: Test) => Promise<ReservedUnitsHarness>): void {
  t.test(`${name} - what is recorded is read, per account and month`, async (t) => {
    const { recorder, reader, shared } = await open(t);
    await recorder.replace([
      { account: 'acme', month: '2026-11', units: 12 },
      { account: 'beta', month: '2026-11', units: 3 },
    ]);
    await shared('beta', '2026-11', 3);
    t.equal(reader.of('acme', '2026-11'), 12);
    t.equal(reader.of('beta', '2026-11'), 3);
    t.equal(reader.of('acme', '2026-10'), 0, 'another month holds none');
    t.equal(reader.of('gamma', '2026-11'), 0, 'an account never recorded holds none');
  });

  t.test(`${name} - each record replaces the whole last one: what it leaves out holds none`, async (t) => {
    const { recorder, reader, shared } = await open(t);
    await recorder.replace([
      { account: 'acme', month: '2026-11', units: 12 },
      { account: 'beta', month: '2026-11', units: 3 },
    ]);
    await shared('acme', '2026-11', 12);
    await recorder.replace([{ account: 'acme', month: '2026-11', units: 5 }]);
    await shared('acme', '2026-11', 5);
    t.equal(reader.of('beta', '2026-11'), 0);
    await recorder.replace([]);
    await shared('acme', '2026-11', 0);
  });
}
