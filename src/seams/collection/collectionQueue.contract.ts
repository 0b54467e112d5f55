// What every CollectionQueue must do (docs/architecture.md#the-seams), run against each
// implementation as abstract-level's suite runs against every LevelDB backend.
import type { Test } from 'tap';
import type { CollectionQueue, Lease } from './ports.js';

export interface QueueHarness {
  queue: CollectionQueue;
  /** Lets the lease time of leases taken so far pass. */
  expireLeases(): Promise<void>;
}

const keys = (leases: Lease[]) => leases.map((lease) => lease.key);

export function collectionQueueContract(t: Test, name: string, open: (t: Test) => Promise<QueueHarness>): void {
  t.test(`${name} - requests are taken oldest first, up to the limit, each on its first delivery`, async (t) => {
    const { queue } = await open(t);
    for (const key of ['a', 'b', 'c']) await queue.request(key);
    const first = await queue.take(2);
    t.same(keys(first), ['a', 'b']);
    t.same(
      first.map((lease) => lease.delivery),
      [1, 1],
    );
    t.same(keys(await queue.take(10)), ['c']);
    t.same(await queue.take(10), [], 'nothing left');
  });

  t.test(`${name} - a key already waiting or leased is not queued again`, async (t) => {
    const { queue } = await open(t);
    await queue.request('a');
    await queue.request('b');
    await queue.request('a');
    const [a, b] = await queue.take(10);
    t.same([a?.key, b?.key], ['a', 'b']);
    await queue.request('a');
    t.same(await queue.take(10), [], 'a is leased: its collection answers the request');
    await queue.ack(a!);
    await queue.request('a');
    t.same(keys(await queue.take(10)), ['a'], 'once acknowledged, a new request is new work');
  });

  t.test(`${name} - an acknowledged lease is never delivered again`, async (t) => {
    const harness = await open(t);
    await harness.queue.request('a');
    const [lease] = await harness.queue.take(1);
    await harness.queue.ack(lease!);
    await harness.expireLeases();
    t.same(await harness.queue.take(10), []);
  });

  t.test(`${name} - a lease neither acknowledged nor released is delivered again once it expires`, async (t) => {
    const harness = await open(t);
    await harness.queue.request('a');
    t.same(keys(await harness.queue.take(1)), ['a']);
    t.same(await harness.queue.take(10), [], 'not while the lease runs');
    await harness.expireLeases();
    const again = await harness.queue.take(10);
    t.same(
      again.map((lease) => [lease.key, lease.delivery]),
      [['a', 2]],
    );
    await harness.queue.ack(again[0]!);
    await harness.expireLeases();
    t.same(await harness.queue.take(10), [], 'the redelivery, acknowledged, is done');
  });

  t.test(`${name} - a released lease is delivered again at once`, async (t) => {
    const { queue } = await open(t);
    await queue.request('a');
    const [lease] = await queue.take(1);
    await queue.release(lease!);
    const again = await queue.take(10);
    t.same(
      again.map((each) => [each.key, each.delivery]),
      [['a', 2]],
    );
  });

  t.test(`${name} - a request signals that work is waiting`, async (t) => {
    const { queue } = await open(t);
    let signals = 0;
    const subscription = queue.waiting.subscribe(() => signals++);
    t.teardown(() => subscription.unsubscribe());
    await queue.request('a');
    t.equal(signals, 1);
  });
}
