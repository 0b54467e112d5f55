// Reading the --nats value.
import t from 'tap';
import { closeNats, connectNats, NatsServersError, parseNatsServers } from '../../src/cluster/natsConnection.js';
import { startNatsServer } from '../helpers/natsServer.js';

t.test('nats connection - --nats takes nats:// URLs separated by commas', async (t) => {
  t.same(parseNatsServers('nats://127.0.0.1:4222'), ['nats://127.0.0.1:4222']);
  t.same(parseNatsServers('nats://a.example:4222, nats://[::1]:5222'), ['nats://a.example:4222', 'nats://[::1]:5222']);
});

t.test('nats connection - a value that is not nats://HOST:PORT is refused, naming the entry', async (t) => {
  for (const entry of [
    '127.0.0.1:4222',
    'http://host:4222',
    'nats://host',
    'nats://host:0',
    'nats://host:70000',
    'nats://host:4222/x',
    '',
  ]) {
    t.throws(
      () => parseNatsServers(`nats://ok:4222,${entry}`),
      new NatsServersError(`--nats takes nats://HOST:PORT[,nats://HOST:PORT...]; "${entry}" is not one`),
      entry,
    );
  }
});

t.test('nats connection - closing while NATS is unreachable ends after the grace instead of waiting for it', async (t) => {
  const server = await startNatsServer(t);
  const connection = await connectNats({ servers: [server.url], name: 'closing' });
  const disconnected = (async () => {
    for await (const status of connection.status()) if (status.type === 'disconnect') return;
  })();
  await server.kill();
  await disconnected;
  await closeNats(connection, 200);
  t.equal(connection.isClosed(), true);
});

t.test('nats connection - connecting when no server answers is refused', async (t) => {
  const server = await startNatsServer(t);
  await server.kill();
  await t.rejects(connectNats({ servers: [server.url], name: 'too early' }));
});
