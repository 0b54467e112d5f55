// Group commit of quota counts (issue 4): counts of one turn share one write per account, at
// most one write is on its way at a time, and a request is answered only once the write that
// holds its count has landed (issue 2: a counted request survives a crash).
import t from 'tap';
import { QuotaMeter } from '../../src/access/quotaMeter.js';
import type { UsageStore } from '../../src/store/usageStore.js';

const now = Date.UTC(2026, 10, 23, 12);

interface Write {
  account: string;
  month: string;
  count: number;
  land(ok?: boolean): void;
  fail(error: Error): void;
}

/** A usage store whose writes land only when the test says so. */
function heldUsage(stored: Record<string, number> = {}) {
  const writes: Write[] = [];
  const usage = {
    used: (account: string, month: string) => stored[`${account}/${month}`] ?? 0,
    write: (account: string, month: string, count: number) =>
      new Promise<boolean>((resolve, reject) => {
        writes.push({ account, month, count, land: (ok = true) => resolve(ok), fail: reject });
      }),
  };
  return { usage: usage as unknown as UsageStore, writes };
}

const endOfTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Whether a promise has settled, after letting pending callbacks run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(() => (done = true), () => (done = true));
  await endOfTurn();
  return done;
}

t.test('quota meter - counts of one turn share one write per account, holding the final count', async (t) => {
  const { usage, writes } = heldUsage({ 'acme/2026-11': 40 });
  const meter = new QuotaMeter(usage);
  const counted = [meter.count('acme', now), meter.count('acme', now), meter.count('beta', now)];
  t.equal(meter.used('acme', now), 42, 'counting is synchronous: admission sees it at once');
  t.same(writes, [], 'nothing is written inside the turn');
  await endOfTurn();
  t.same(writes.map(({ account, month, count }) => [account, month, count]), [['acme', '2026-11', 42], ['beta', '2026-11', 1]]);
  t.notOk(await settled(Promise.all(counted)), 'no request is answered before its write lands');
  for (const write of writes) write.land();
  t.same(await Promise.all(counted), [true, true, true]);
});

t.test('quota meter - counts made while a write is on its way go in one write after it lands', async (t) => {
  const { usage, writes } = heldUsage();
  const meter = new QuotaMeter(usage);
  const first = meter.count('acme', now);
  await endOfTurn();
  t.equal(writes.length, 1);
  const later = [meter.count('acme', now)];
  await endOfTurn();
  later.push(meter.count('acme', now));
  await endOfTurn();
  t.equal(writes.length, 1, 'no second write while the first is on its way');
  writes[0]!.land();
  t.equal(await first, true);
  await endOfTurn();
  t.equal(writes.length, 2, 'the waiting counts are written together once the first landed');
  t.equal(writes[1]!.count, 3);
  t.notOk(await settled(Promise.all(later)), 'their requests wait for their own write');
  writes[1]!.land();
  t.same(await Promise.all(later), [true, true]);
});

t.test('quota meter - a failed write fails its requests, and the next counts are still written', async (t) => {
  const { usage, writes } = heldUsage();
  const meter = new QuotaMeter(usage);
  const lost = meter.count('acme', now);
  await endOfTurn();
  const next = meter.count('acme', now);
  writes[0]!.fail(new Error('disk full'));
  await t.rejects(lost, /disk full/);
  await endOfTurn();
  t.equal(writes.length, 2, 'the counts waiting behind the failed write are written');
  t.equal(writes[1]!.count, 2, 'the write carries every count made so far');
  writes[1]!.land(false);
  t.equal(await next, false, 'a write lmdb refused answers false');
});

t.test('quota meter - a new month starts from what the store holds for it', async (t) => {
  const { usage, writes } = heldUsage({ 'acme/2026-11': 7, 'acme/2026-12': 2 });
  const meter = new QuotaMeter(usage);
  t.equal(meter.used('acme', now), 7);
  const december = Date.UTC(2026, 11, 1);
  void meter.count('acme', december);
  t.equal(meter.used('acme', december), 3);
  await endOfTurn();
  t.same(writes.map(({ month, count }) => [month, count]), [['2026-12', 3]]);
});
