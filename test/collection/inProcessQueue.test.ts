// The in-process collection queue against the CollectionQueue contract.
import t from 'tap';
import { InProcessCollectionQueue } from '../../src/seams/collection/inProcessQueue.js';
import { collectionQueueContract } from '../../src/seams/collection/collectionQueue.contract.js';

const leaseMs = 60_000;

collectionQueueContract(t, 'in-process collection queue', async () => {
  let now = 1_000;
  const queue = new InProcessCollectionQueue(leaseMs, () => now);
  return {
    queue,
    expireLeases: async () => {
      now += leaseMs;
    },
  };
});

t.test('in-process collection queue - expired leases come back first, in the order they were taken', async (t) => {
  let now = 0;
  const queue = new InProcessCollectionQueue(100, () => now);
  await queue.request('a');
  await queue.request('b');
  await queue.take(2);
  now = 50;
  await queue.request('c');
  now = 100;
  t.same(
    (await queue.take(10)).map((lease) => lease.key),
    ['a', 'b', 'c'],
    'a and b expired at 100; c is new',
  );
});
