// The collection side of a node, as failover.system.test.ts kills it: the cluster's collection
// queue from the build (dist/), with the service's own settings (ack wait, extensions, pull
// expiry). Plain JavaScript, so that it starts in a fraction of a TypeScript process's time. It
// prints "ready" once open; after a line on stdin it takes work without pause and holds every
// lease it gets, extending them as a live node does, printing "pulling" after its first take,
// until killed. `node pullingNode.mjs NATS_URL`.
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { JetStreamCollectionQueue, defaultQueueOptions } from '../../dist/src/seams/collection/jetStreamQueue.js';
import { connectNats } from '../../dist/src/cluster/natsConnection.js';
import { defaultPolicy } from '../../dist/src/config.js';
import { Health } from '../../dist/src/health.js';

const [url = ''] = process.argv.slice(2);
const connection = await connectNats({ servers: [url], name: 'pulling node' });
const queue = await JetStreamCollectionQueue.open(connection, defaultQueueOptions(defaultPolicy.leaseMs), new Health());
process.stdout.write('ready\n');
await once(createInterface({ input: process.stdin }), 'line');
const held = [];
for (let takes = 0; ; takes++) {
  held.push(...(await queue.take(10)));
  if (takes === 0) process.stdout.write('pulling\n');
}
