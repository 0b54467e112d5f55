// The quota ledger contract (docs/architecture.md#seams): what every implementation of QuotaLedger must do,
// run against each of them (test/access/quotaLedger.test.ts). A cluster's implementation
// runs the same suite.
import type { Test } from 'tap';
import { reserveUnits, returnUnits } from '../../src/access/quotaLedger.js';
import type { QuotaLedger } from '../../src/store/quotaLedger.js';

export function quotaLedgerContract(t: Test, name: string, open: (t: Test) => Promise<QuotaLedger>): void {
  t.test(`${name} - an entry never written reads 0 and takes a swap from the revision read`, async (t) => {
    const ledger = await open(t);
    const entry = await ledger.read('acme', '2026-11');
    t.equal(entry.granted, 0);
    const result = await ledger.swap('acme', '2026-11', entry.revision, 5);
    t.equal(result.swapped, true);
    t.equal((await ledger.read('acme', '2026-11')).granted, 5);
  });

  t.test(`${name} - a swap from a revision the entry no longer has is refused with the entry as it is`, async (t) => {
    const ledger = await open(t);
    const first = await ledger.read('acme', '2026-11');
    t.equal((await ledger.swap('acme', '2026-11', first.revision, 3)).swapped, true);
    const stale = await ledger.swap('acme', '2026-11', first.revision, 7);
    t.equal(stale.swapped, false);
    t.equal(stale.swapped ? -1 : stale.current.granted, 3, 'the refusal carries the current entry');
    t.equal((await ledger.read('acme', '2026-11')).granted, 3, 'nothing was written');
  });

  t.test(`${name} - accounts and months are separate entries`, async (t) => {
    const ledger = await open(t);
    await reserveUnits(ledger, 'acme', '2026-11', 4, null);
    await reserveUnits(ledger, 'acme', '2026-12', 2, null);
    await reserveUnits(ledger, 'beta', '2026-11', 1, null);
    t.same(
      [await ledger.read('acme', '2026-11'), await ledger.read('acme', '2026-12'), await ledger.read('beta', '2026-11')].map(
        (entry) => entry.granted,
      ),
      [4, 2, 1],
    );
  });

  t.test(`${name} - concurrent reservations never take the month past the quota, and fill it`, async (t) => {
    const ledger = await open(t);
    const reservations = await Promise.all(Array.from({ length: 40 }, () => reserveUnits(ledger, 'acme', '2026-11', 7, 100)));
    t.equal(
      reservations.reduce((sum, reservation) => sum + reservation.units, 0),
      100,
      'every unit granted once',
    );
    t.ok(
      reservations.every((reservation) => reservation.units <= 7 && reservation.total <= 100),
      'no reservation beyond its wish or the quota',
    );
    t.equal((await ledger.read('acme', '2026-11')).granted, 100);
    t.same(await reserveUnits(ledger, 'acme', '2026-11', 1, 100), { units: 0, total: 100 }, 'a full month grants nothing');
  });

  t.test(`${name} - returned units come off the month, concurrently with reservations`, async (t) => {
    const ledger = await open(t);
    await reserveUnits(ledger, 'acme', '2026-11', 50, null);
    await Promise.all([
      returnUnits(ledger, 'acme', '2026-11', 20),
      reserveUnits(ledger, 'acme', '2026-11', 5, null),
      returnUnits(ledger, 'acme', '2026-11', 3),
    ]);
    t.equal((await ledger.read('acme', '2026-11')).granted, 32);
  });
}
