// A node process that takes up to N leases from the cluster's collection queue, prints their
// keys as one JSON line, and holds them without answering until it is killed. Run by
// jetStreamQueueDurability.test.ts: `node <loader flags> leaseHolder.ts NATS_URL N`.
import { JetStreamCollectionQueue } from '../../src/seams/collection/jetStreamQueue.js';
import { connectNats } from '../../src/cluster/natsConnection.js';
import { Health } from '../../src/health.js';
import { testQueueOptions } from '../helpers/natsQueue.js';

const [url = '', count = '0'] = process.argv.slice(2);
const connection = await connectNats({ servers: [url], name: 'lease holder' });
const queue = await JetStreamCollectionQueue.open(connection, testQueueOptions, new Health());
const leases = await queue.take(Number(count));
process.stdout.write(`${JSON.stringify(leases.map((lease) => lease.key))}\n`);
// Holds on, answering nothing, until the test kills it.
setInterval(() => undefined, 60_000);
