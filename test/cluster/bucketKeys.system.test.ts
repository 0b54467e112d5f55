// Listing a KV bucket's keys (docs/design/cluster.md#listing-a-buckets-keys): every key,
// deleted ones included, in one request, also while other clients keep writing the bucket.
import { jetstream } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import t from 'tap';
import { bucketKeys } from '../../src/cluster/bucketKeys.js';
import { closeNats, connectNats } from '../../src/cluster/natsConnection.js';
import { startNatsServer } from '../helpers/natsServer.js';

t.test('bucket keys - every key once, deleted ones too, while writers keep rewriting the bucket', async (t) => {
  const server = await startNatsServer(t);
  const connection = await connectNats({ servers: [server.url], name: 'bucket keys' });
  t.teardown(() => closeNats(connection, 500));
  const bucket = await new Kvm(jetstream(connection, { timeout: 2_000 })).create('LISTED', { history: 1 });
  t.same(await bucketKeys(bucket), [], 'an empty bucket has no keys');

  await bucket.put('node-a', '1');
  await bucket.put('node.b', '2');
  await bucket.put('gone', '3');
  await bucket.delete('gone');
  t.same((await bucketKeys(bucket)).sort(), ['gone', 'node-a', 'node.b'], 'keys with a dot whole; a deleted key is listed');
  t.equal((await bucket.get('gone'))?.operation, 'DEL', 'and reads as deleted');

  // Two writers rewrite their keys without pause, as nodes rewrite their units in hand: each of
  // 200 listings still ends, with every key.
  let writing = true;
  const writers = ['node-a', 'node.b'].map(async (key) => {
    for (let value = 0; writing; value++) await bucket.put(key, String(value));
  });
  const listings: string[] = [];
  for (let round = 0; round < 200; round++) listings.push((await bucketKeys(bucket)).sort().join());
  writing = false;
  await Promise.all(writers);
  t.same(new Set(listings), new Set(['gone,node-a,node.b']), '200 listings during the writes, each with every key');
});
