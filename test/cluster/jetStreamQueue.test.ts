// The JetStream collection queue against the CollectionQueue contract, and what only a queue
// shared by several nodes must do.
import t from 'tap';
import { firstValueFrom } from 'rxjs';
import type { Lease } from '../../src/collection/ports.js';
import { collectionQueueContract } from '../collection/collectionQueue.contract.js';
import { startNatsServer } from '../helpers/natsServer.js';
import { openTestQueue, untilLeasesExpire } from '../helpers/natsQueue.js';

const keysOf = (leases: Lease[]) => leases.map((lease) => lease.key);

collectionQueueContract(t, 'JetStream collection queue', async (t) => {
  const server = await startNatsServer(t);
  const { queue } = await openTestQueue(t, server.url, 'contract');
  return { queue, expireLeases: untilLeasesExpire };
});

t.test('JetStream collection queue - a request on one node signals waiting work on the others, not twice on its own', async (t) => {
  const server = await startNatsServer(t);
  const [asking, other] = await Promise.all([openTestQueue(t, server.url, 'node 1'), openTestQueue(t, server.url, 'node 2')]);
  let ownSignals = 0;
  const own = asking.queue.waiting.subscribe(() => ownSignals++);
  t.teardown(() => own.unsubscribe());
  const signalled = firstValueFrom(other.queue.waiting);
  await asking.queue.request('a');
  await signalled;
  await asking.connection.flush(); // our own announcement has come back by now, if it ever does
  t.equal(ownSignals, 1);
  t.same(keysOf(await other.queue.take(10)), ['a']);
});

t.test('JetStream collection queue - keys of any characters travel intact', async (t) => {
  const server = await startNatsServer(t);
  const { queue } = await openTestQueue(t, server.url, 'node');
  const keys = ['tw/user/a.b', 'yt/channel/*>', 'gh/repo/with space', 'ig/user/ünïcødé'];
  for (const key of keys) await queue.request(key);
  await queue.request('tw/user/a.b');
  t.same(keysOf(await queue.take(10)), keys);
});
