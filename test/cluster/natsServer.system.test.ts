// The test nats-server: starts on a free port with its own store, accepts a client, and keeps a
// stream's messages across a SIGKILL and a restart on the same store.
import t from 'tap';
import { existsSync } from 'node:fs';
import { jetstream, jetstreamManager, StorageType } from '@nats-io/jetstream';
import { closeNats, connectNats } from '../../src/cluster/natsConnection.js';
import { startNatsServer, untilReconnected } from '../helpers/natsServer.js';

t.test('test nats-server - accepts a client on its own port and store, and survives kill -9 with its messages', async (t) => {
  const server = await startNatsServer(t);
  t.not(server.port, 4222, 'never the default port a system NATS may hold');
  t.match(server.url, /^nats:\/\/127\.0\.0\.1:\d+$/);

  const connection = await connectNats({ servers: [server.url], name: 'natsServer.test' });
  t.teardown(() => closeNats(connection, 500));
  const manager = await jetstreamManager(connection);
  await manager.streams.add({ name: 'KEPT', subjects: ['kept.>'], storage: StorageType.File });
  const client = jetstream(connection);
  for (let n = 1; n <= 3; n++) await client.publish(`kept.${n}`, `message ${n}`);

  const reconnected = untilReconnected(connection);
  await server.kill();
  t.ok(existsSync(server.storeDir), 'the store outlives the process');
  await server.restart();
  await reconnected; // by itself, to the same port
  const info = await manager.streams.info('KEPT');
  t.equal(info.state.messages, 3);
  const stream = await manager.streams.get('KEPT');
  t.same(await Promise.all([1, 2, 3].map(async (seq) => (await stream.getMessage({ seq }))?.string())), [
    'message 1',
    'message 2',
    'message 3',
  ]);
});

t.test('test nats-server - teardown stops the process and removes the store', async (t) => {
  let storeDir = '';
  let url = '';
  await t.test('a server used and left running', async (t) => {
    const server = await startNatsServer(t);
    storeDir = server.storeDir;
    url = server.url;
  });
  t.equal(existsSync(storeDir), false, 'store removed');
  await t.rejects(connectNats({ servers: [url], name: 'after teardown' }), 'nothing listens any more');
});

t.test('test nats-server - a missing binary is a clear error, not a crash', async (t) => {
  const previous = process.env.NATS_SERVER;
  process.env.NATS_SERVER = '/nonexistent/nats-server';
  t.teardown(() => {
    if (previous === undefined) delete process.env.NATS_SERVER;
    else process.env.NATS_SERVER = previous;
  });
  // The helper reads NATS_SERVER each time it starts a server.
  await t.rejects(startNatsServer(t), {
    message:
      "cannot run /nonexistent/nats-server (install Debian's nats-server, or set NATS_SERVER): spawn /nonexistent/nats-server ENOENT",
  });
});
