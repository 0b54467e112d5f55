// Per-day request counts, written with the quota ledger's reservations and give-backs
// (docs/storage.md#daily-usage).
import t, { type Test } from 'tap';
import { reserveUnits, returnUnits } from '../../src/seams/quotaLedger/reservations.js';
import { AccountStore } from '../../src/store/accountStore.js';
import { DailyUsage } from '../../src/store/dailyUsage.js';
import { openDatabases } from '../../src/store/environment.js';
import { ReservedUnits } from '../../src/seams/reservedUnits/reservedUnits.js';
import { UsageStore } from '../../src/seams/quotaLedger/usageStore.js';
import { tempDataDir } from '../helpers/service.js';

const day = 86_400_000;

function open(t: Test) {
  const dataDir = tempDataDir(t);
  const dbs = openDatabases(dataDir);
  t.teardown(() => dbs.root.close());
  const clock = { now: Date.UTC(2026, 10, 20, 12) };
  return { dbs, dataDir, clock, ledger: new UsageStore(dbs, () => clock.now), days: new DailyUsage(dbs) };
}

t.test('daily usage - reservations count on the day they land, give-backs come off the latest days', async (t) => {
  const { clock, ledger, days } = open(t);
  await reserveUnits(ledger, 'acme', '2026-11', 5, null);
  clock.now += day;
  await reserveUnits(ledger, 'acme', '2026-11', 3, null);
  await reserveUnits(ledger, 'acme', '2026-11', 4, null);
  t.same(days.dailyUsage('acme', '2026-11-19', '2026-11-22'), [
    { day: '2026-11-19', requests: 0 },
    { day: '2026-11-20', requests: 5 },
    { day: '2026-11-21', requests: 7 },
    { day: '2026-11-22', requests: 0 },
  ]);
  clock.now += day;
  // A clean stop the next day gives back 9 unspent units: the 7 of the 21st and 2 of the 20th.
  await returnUnits(ledger, 'acme', '2026-11', 9);
  t.same(days.dailyUsage('acme', '2026-11-20', '2026-11-22'), [
    { day: '2026-11-20', requests: 3 },
    { day: '2026-11-21', requests: 0 },
    { day: '2026-11-22', requests: 0 },
  ]);
  t.equal(ledger.used('acme', '2026-11'), 3, 'the days add up to the month');
  t.same(days.dailyUsage('beta', '2026-11-20', '2026-11-20'), [{ day: '2026-11-20', requests: 0 }], 'accounts are apart');
});

t.test(
  'daily usage - units the running server holds in hand are not shown: they come off the latest days, as a give-back would',
  async (t) => {
    const { dbs, clock, ledger, days } = open(t);
    const reservedUnits = new ReservedUnits(dbs);
    await reserveUnits(ledger, 'acme', '2026-11', 5, null);
    clock.now += day;
    await reserveUnits(ledger, 'acme', '2026-11', 4, null);
    await reservedUnits.replace([
      { account: 'acme', month: '2026-11', units: 6 },
      { account: 'beta', month: '2026-11', units: 2 },
    ]);
    t.equal(ledger.used('acme', '2026-11'), 9, 'the ledger still holds every unit reserved: the quota is enforced on it');
    t.equal(ledger.counted('acme', '2026-11'), 3, 'shown: the 9 reserved less the 6 in hand');
    t.same(days.dailyUsage('acme', '2026-11-20', '2026-11-21'), [
      { day: '2026-11-20', requests: 3 },
      { day: '2026-11-21', requests: 0 },
    ]);
    t.same(
      days.dailyUsage('acme', '2026-11-20', '2026-11-20'),
      [{ day: '2026-11-20', requests: 3 }],
      'a range before the latest day as well',
    );
    t.equal(ledger.counted('beta', '2026-11'), 0, 'never below none');
    await reservedUnits.replace([{ account: 'acme', month: '2026-11', units: 1 }]);
    t.equal(ledger.counted('acme', '2026-11'), 8, 'a later record replaces the whole earlier one');
    t.equal(reservedUnits.of('beta', '2026-11'), 0, 'an account no longer in the record has none in hand');
    t.same(days.dailyUsage('acme', '2026-11-20', '2026-11-21'), [
      { day: '2026-11-20', requests: 5 },
      { day: '2026-11-21', requests: 3 },
    ]);
  },
);

t.test("daily usage - a reservation for a month that has just ended counts on that month's last day", async (t) => {
  const { clock, ledger, days } = open(t);
  clock.now = Date.UTC(2026, 11, 1, 0, 0, 1);
  await reserveUnits(ledger, 'acme', '2026-11', 2, null);
  await reserveUnits(ledger, 'acme', '2026-12', 1, null);
  t.same(days.dailyUsage('acme', '2026-11-30', '2026-12-01'), [
    { day: '2026-11-30', requests: 2 },
    { day: '2026-12-01', requests: 1 },
  ]);
});

t.test('daily usage - days older than 90 are pruned when a new day is written, and the counts survive a reopen', async (t) => {
  const { dbs, dataDir, clock, ledger } = open(t);
  clock.now = Date.UTC(2026, 7, 24, 12); // 2026-08-24
  await reserveUnits(ledger, 'acme', '2026-08', 4, null);
  clock.now = Date.UTC(2026, 7, 25, 12);
  await reserveUnits(ledger, 'acme', '2026-08', 6, null);
  clock.now = Date.UTC(2026, 10, 22, 12); // 90 days after 2026-08-24: the 24th falls out, the 25th is the oldest kept
  await reserveUnits(ledger, 'acme', '2026-11', 1, null);
  const keys = [...dbs.dailyUsage.getKeys({ start: ['acme'], end: ['acme', '~'] })].map((key) => key[1]);
  t.same(keys, ['2026-08-25', '2026-11-22'], 'the 91st day back is gone');
  await dbs.root.close();
  const reopened = openDatabases(dataDir);
  t.teardown(() => reopened.root.close());
  t.same(new DailyUsage(reopened).dailyUsage('acme', '2026-08-25', '2026-08-26'), [
    { day: '2026-08-25', requests: 6 },
    { day: '2026-08-26', requests: 0 },
  ]);
});

t.test('daily usage - a range must be real days, forwards, and within the days kept', async (t) => {
  const { days } = open(t);
  t.throws(
    () => days.dailyUsage('acme', '2026-11-31', '2026-12-01'),
    new RangeError("days are written YYYY-MM-DD: got '2026-11-31' to '2026-12-01'"),
  );
  t.throws(() => days.dailyUsage('acme', 'yesterday', '2026-12-01'), RangeError);
  t.throws(() => days.dailyUsage('acme', '2026-12-02', '2026-12-01'), new RangeError('the range 2026-12-02 to 2026-12-01 runs backwards'));
  t.throws(() => days.dailyUsage('acme', '2026-09-01', '2026-11-30'), new RangeError('at most 90 days are kept'));
  t.equal(days.dailyUsage('acme', '2026-09-02', '2026-11-30').length, 90, 'exactly 90 days is allowed');
});

t.test('daily usage - deleting an account deletes its days', async (t) => {
  const { dbs, ledger, days } = open(t);
  const accounts = new AccountStore(dbs);
  await accounts.createAccount({
    name: 'acme',
    plan: 'free',
    quota: 500,
    rate: { limit: 60, windowMs: 60_000 },
    createdAt: '2026-11-01T00:00:00.000Z',
  });
  await reserveUnits(ledger, 'acme', '2026-11', 2, null);
  await reserveUnits(ledger, 'acmeco', '2026-11', 3, null);
  await accounts.deleteAccount('acme');
  t.same(days.dailyUsage('acme', '2026-11-20', '2026-11-20'), [{ day: '2026-11-20', requests: 0 }]);
  t.same(days.dailyUsage('acmeco', '2026-11-20', '2026-11-20'), [{ day: '2026-11-20', requests: 3 }], 'a longer name is another account');
});
