// The quota ledger contract (docs/architecture.md#seams): what every implementation of QuotaLedger must do,
// run against each of them (test/access/quotaLedger.test.ts). A cluster's implementations run
// the same suite: the quota's, on months, and the rate windows', on windows.
import type { Test } from 'tap';
import { reserveUnits, returnUnits } from './reservations.js';
import type { QuotaLedger } from './quotaLedger.js';

/** `periods`: two periods the ledger keeps, months unless given. */
export function quotaLedgerContract(
  t: Test,
  name: string,
  open: (t: Test) => Promise<QuotaLedger>,
  [period, later]: [string, string] = ['2026-11', '2026-12'],
): void {
  t.test(`${name} - an entry never written reads 0 and takes a swap from the revision read`, async (t) => {
    const ledger = await open(t);
    const entry = await ledger.read('acme', period);
    t.equal(entry.granted, 0);
    const result = await ledger.swap('acme', period, entry.revision, 5);
    t.equal(result.swapped, true);
    t.equal((await ledger.read('acme', period)).granted, 5);
  });

  t.test(`${name} - a swap from a revision the entry no longer has is refused with the entry as it is`, async (t) => {
    const ledger = await open(t);
    const first = await ledger.read('acme', period);
    t.equal((await ledger.swap('acme', period, first.revision, 3)).swapped, true);
    const stale = await ledger.swap('acme', period, first.revision, 7);
    t.equal(stale.swapped, false);
    t.equal(stale.swapped ? -1 : stale.current.granted, 3, 'the refusal carries the current entry');
    t.equal((await ledger.read('acme', period)).granted, 3, 'nothing was written');
  });

  t.test(`${name} - accounts and periods are separate entries`, async (t) => {
    const ledger = await open(t);
    await reserveUnits(ledger, 'acme', period, 4, null);
    await reserveUnits(ledger, 'acme', later, 2, null);
    await reserveUnits(ledger, 'beta', period, 1, null);
    t.same(
      [await ledger.read('acme', period), await ledger.read('acme', later), await ledger.read('beta', period)].map(
        (entry) => entry.granted,
      ),
      [4, 2, 1],
    );
  });

  t.test(`${name} - concurrent reservations never take the period past the cap, and fill it`, async (t) => {
    const ledger = await open(t);
    const reservations = await Promise.all(Array.from({ length: 40 }, () => reserveUnits(ledger, 'acme', period, 7, 100)));
    t.equal(
      reservations.reduce((sum, reservation) => sum + reservation.units, 0),
      100,
      'every unit granted once',
    );
    t.ok(
      reservations.every((reservation) => reservation.units <= 7 && reservation.total <= 100),
      'no reservation beyond its wish or the quota',
    );
    t.equal((await ledger.read('acme', period)).granted, 100);
    t.same(await reserveUnits(ledger, 'acme', period, 1, 100), { units: 0, total: 100 }, 'a full period grants nothing');
  });

  t.test(`${name} - returned units come off the period, concurrently with reservations`, async (t) => {
    const ledger = await open(t);
    await reserveUnits(ledger, 'acme', period, 50, null);
    await Promise.all([
      returnUnits(ledger, 'acme', period, 20),
      reserveUnits(ledger, 'acme', period, 5, null),
      returnUnits(ledger, 'acme', period, 3),
    ]);
    t.equal((await ledger.read('acme', period)).granted, 32);
  });
}
