// The JetStream collection queue across real failures (docs/design/cluster.md#durability): a
// node that dies holding leases, a nats-server killed with SIGKILL and restarted on its store, and
// several nodes taking the same keys at once.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { firstValueFrom } from 'rxjs';
import type { CollectionQueue, Lease } from '../../src/seams/collection/ports.js';
import { collectionQueueNames } from '../../src/cluster/collectionStream.js';
import { closeNats } from '../../src/cluster/natsConnection.js';
import { eventually } from '../helpers/eventually.js';
import { startNatsServer, untilReconnected, untilStored } from '../helpers/natsServer.js';
import { openTestQueue, testQueueOptions, untilLeasesExpire } from '../helpers/natsQueue.js';

const keysOf = (leases: Lease[]) => leases.map((lease) => lease.key).sort();

t.test('JetStream collection queue - the leases of a node that leaves without answering go to another node after the lease', async (t) => {
  const server = await startNatsServer(t);
  const first = await openTestQueue(t, server.url, 'node 1');
  const second = await openTestQueue(t, server.url, 'node 2');
  for (const key of ['a', 'b']) await first.queue.request(key);
  t.same(keysOf(await first.queue.take(10)), ['a', 'b']);

  // Node 1 leaves: its connection closes without a word about its leases.
  await closeNats(first.connection);
  t.same(await second.queue.take(10), [], 'nothing for node 2 while the leases run');
  await second.queue.request('a');
  await untilLeasesExpire();
  const redelivered = await second.queue.take(10);
  t.same(
    redelivered.map((lease) => [lease.key, lease.delivery]),
    [
      ['a', 2],
      ['b', 2],
    ],
    'each once, on its second delivery: the request of a leased key added nothing',
  );
});

t.test(
  'JetStream collection queue - a node process killed -9 holding leases: all it held goes to another node after the lease',
  async (t) => {
    const server = await startNatsServer(t);
    const { queue } = await openTestQueue(t, server.url, 'survivor');
    const requested = Array.from({ length: 20 }, (_, n) => `gh/repo/owner/name${n}`);
    for (const key of requested) await queue.request(key);

    const holder = spawn(
      process.execPath,
      [...process.execArgv, fileURLToPath(new URL('leaseHolder.ts', import.meta.url)), server.url, '20'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    t.teardown(async () => {
      holder.kill('SIGKILL');
      await exited;
    });
    const [line] = await once(createInterface({ input: holder.stdout }), 'line');
    t.same(JSON.parse(String(line)).sort(), [...requested].sort(), 'the other node holds every request');
    holder.kill('SIGKILL');
    await exited;

    t.same(await queue.take(100), [], 'nothing while its leases run');
    await untilLeasesExpire();
    const taken = await queue.take(100);
    t.same(keysOf(taken), [...requested].sort(), 'every resource it held, once');
    t.same(new Set(taken.map((lease) => lease.delivery)), new Set([2]), 'each on its second delivery');
  },
);

t.test('JetStream collection queue - nats-server killed -9 and restarted on its store loses no request', async (t) => {
  const server = await startNatsServer(t);
  const { queue, connection, health } = await openTestQueue(t, server.url, 'node');
  const requested = Array.from({ length: 100 }, (_, n) => `gh/repo/owner.${n}/name ${n}`);
  for (const key of requested) await queue.request(key);
  const leased = await queue.take(30);
  for (const lease of leased.slice(0, 10)) await queue.ack(lease);
  // Killed once the last request is in the stream's block file. The acknowledgements' removals
  // from the stream need not be (nats-server 2.9 writes them later): acknowledged keys may come back.
  await untilStored(server, collectionQueueNames.stream, requested.at(-1)!);

  const reconnected = untilReconnected(connection);
  const setUpAgain = firstValueFrom(queue.waiting);
  await server.kill();
  await server.restart();
  await reconnected;
  await setUpAgain; // the consumer, gone with the server's memory, is back: work may be waiting
  // The restarted server does not know these leases any more: answering them must not end the
  // work of whoever is given the keys now.
  for (const lease of leased.slice(10)) await queue.ack(lease);

  // Every key is asked for again: keys acknowledged before the kill are new work, the others
  // wait or are leased and must not be queued twice.
  for (const key of [...requested, 'after the restart']) await queue.request(key);
  // Taken and acknowledged until every key came; one taken twice would come meanwhile or below.
  const after: Lease[] = [];
  const takeAndAck = async () => {
    const taken = await queue.take(1_000);
    for (const lease of taken) await queue.ack(lease);
    after.push(...taken);
    return new Set(keysOf(after)).size;
  };
  await eventually(takeAndAck, (keys) => keys === requested.length + 1, testQueueOptions.leaseMs + 500);
  t.same(keysOf(after), [...requested, 'after the restart'].sort(), 'each key once: none lost, none stuck, none twice');
  t.same(health.problems(), []);
  await untilLeasesExpire();
  t.same(await queue.take(1_000), [], 'all acknowledged: nothing comes back');
});

t.test('JetStream collection queue - nodes taking the same keys at once never hold one key together', async (t) => {
  const server = await startNatsServer(t);
  const nodes = await Promise.all([1, 2, 3].map((n) => openTestQueue(t, server.url, `node ${n}`)));
  const keys = Array.from({ length: 6 }, (_, n) => `key ${n}`);
  const holders = new Map<string, string>();
  const overlaps: string[] = [];
  const collected = new Set<string>();
  let requesting = true;

  const requester = (async () => {
    for (let round = 0; requesting; round++) {
      const node = nodes[round % nodes.length];
      if (node) await Promise.all(keys.map((key) => node.queue.request(key)));
    }
  })();
  const worker = async (name: string, node: (typeof nodes)[number]) => {
    const until = Date.now() + 2_000;
    while (Date.now() < until) {
      const leases = await node.queue.take(10);
      for (const lease of leases) {
        const holder = holders.get(lease.key);
        if (holder) overlaps.push(`${lease.key}: ${name} while ${holder}`);
        holders.set(lease.key, name);
      }
      // Holding its leases for a while, as a collection does, on purpose: no wait for an event.
      await new Promise((resolve) => setTimeout(resolve, leases.length > 0 ? 30 : 10));
      for (const lease of leases) {
        collected.add(lease.key);
        // The holder stops holding before it answers: whoever is given the key next sees it free.
        holders.delete(lease.key);
        await node.queue.ack(lease);
      }
    }
  };
  await Promise.all(nodes.map((node, n) => worker(`node ${n + 1}`, node)));
  requesting = false;
  await requester;
  t.same(overlaps, [], 'no key held by two nodes at once');
  t.equal(collected.size, keys.length, 'every key was taken');
});

t.test('JetStream collection queue - an answer after the lease ran out touches nothing of the next holder', async (t) => {
  const server = await startNatsServer(t);
  const late = await openTestQueue(t, server.url, 'node 1');
  const next = await openTestQueue(t, server.url, 'node 2');
  const third = await openTestQueue(t, server.url, 'node 3');
  await late.queue.request('a');
  const expiredLease = await takeOne(late.queue);
  await untilLeasesExpire();
  const nextLease = await takeOne(next.queue);
  t.same([nextLease.key, nextLease.delivery], ['a', 2]);

  await late.queue.release(expiredLease);
  t.same(await third.queue.take(1), [], 'a late release does not deliver the key again while it is held');
  await late.queue.ack(expiredLease);
  await next.queue.release(nextLease);
  const again = await takeOne(third.queue);
  t.same([again.key, again.delivery], ['a', 3], 'a late acknowledgement did not end the work');
});

async function takeOne(queue: CollectionQueue): Promise<Lease> {
  const [lease] = await queue.take(1);
  if (!lease) throw new Error('nothing to take');
  return lease;
}
