// The JetStream collection queue against the CollectionQueue contract, and what only a queue
// shared by several nodes must do.
import t from 'tap';
import { firstValueFrom } from 'rxjs';
import { jetstreamManager, RetentionPolicy } from '@nats-io/jetstream';
import type { Lease } from '../../src/seams/collection/ports.js';
import { collectionQueueNames } from '../../src/cluster/collectionStream.js';
import { JetStreamCollectionQueue } from '../../src/seams/collection/jetStreamQueue.js';
import { closeNats, connectNats } from '../../src/cluster/natsConnection.js';
import { Health } from '../../src/health.js';
import { collectionQueueContract } from '../../src/seams/collection/collectionQueue.contract.js';
import { eventually } from '../helpers/eventually.js';
import { startNatsServer } from '../helpers/natsServer.js';
import { openTestQueue, testQueueOptions, untilLeasesExpire } from '../helpers/natsQueue.js';

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

t.test("JetStream collection queue - a stream left with other settings is brought to the queue's own", async (t) => {
  const server = await startNatsServer(t);
  const connection = await connectNats({ servers: [server.url], name: 'older node' });
  t.teardown(() => closeNats(connection, 500));
  const manager = await jetstreamManager(connection);
  await manager.streams.add({
    name: collectionQueueNames.stream,
    subjects: [`${collectionQueueNames.workSubjectPrefix}.>`],
    retention: RetentionPolicy.Workqueue,
  });
  const { queue } = await openTestQueue(t, server.url, 'node');
  t.equal((await manager.streams.info(collectionQueueNames.stream)).config.max_msgs_per_subject, 1);
  await queue.request('a');
  await queue.request('a');
  t.same(keysOf(await queue.take(10)), ['a'], 'one message per key');
});

t.test("JetStream collection queue - a request NATS cannot store is refused with the client library's error", async (t) => {
  const server = await startNatsServer(t);
  const { queue, connection } = await openTestQueue(t, server.url, 'node');
  await (await jetstreamManager(connection)).streams.delete(collectionQueueNames.stream);
  // No stream takes the subject: the library reports the publish's "no responders" so.
  await t.rejects(queue.request('a'), { name: 'JetStreamNotEnabled', message: 'jetstream is not enabled' });
});

t.test('JetStream collection queue - at the cap of leases out a take ends with what it got, each key once', async (t) => {
  const server = await startNatsServer(t);
  const connection = await connectNats({ servers: [server.url], name: 'capped node' });
  t.teardown(() => closeNats(connection, 500));
  const queue = await JetStreamCollectionQueue.open(connection, { ...testQueueOptions, maxLeasesOut: 2 }, new Health());
  t.teardown(() => queue.close());
  for (const key of ['a', 'b', 'c', 'd']) await queue.request(key);
  t.same(keysOf(await queue.take(10)), ['a', 'b'], 'two leases out at most');
  t.same(await queue.take(10), [], 'nothing more while they run');
  await untilLeasesExpire();
  const again = await queue.take(10);
  t.same(
    again.map((lease) => [lease.key, lease.delivery]),
    [
      ['a', 2],
      ['b', 2],
    ],
    'the expired two come back, once each',
  );
  for (const lease of again) await queue.ack(lease);
  t.same(keysOf(await queue.take(10)), ['c', 'd']);
});

t.test('JetStream collection queue - a take that finds nothing gets work that arrives while it waits', async (t) => {
  const server = await startNatsServer(t);
  const { queue, connection } = await openTestQueue(t, server.url, 'taker');
  const { queue: other } = await openTestQueue(t, server.url, 'requester');
  const taking = queue.take(10);
  // The request comes once the take's pull waits on the server (the consumer counts it).
  const manager = await jetstreamManager(connection);
  await eventually(
    () => manager.consumers.info(collectionQueueNames.stream, collectionQueueNames.consumer),
    (info) => info.num_waiting === 1,
    { intervalMs: 5, orFail: 'the pull waiting' },
  );
  await other.request('a');
  t.same(keysOf(await taking), ['a']);
});
