// The stream on real server processes (docs/push.md#threads): with two edge threads every
// edge forwards the views the resource thread posts, tickets and revocations hold across
// edges, a slow consumer is cut on any edge; SIGTERM closes with 1001; kill -9 loses nothing.
import t from 'tap';
import { cliInProcess, startServer } from '../helpers/cli.js';
import { provision } from '../helpers/provision.js';
import { tempDataDir } from '../helpers/service.js';
import { StreamClient, ticketsPath, updateOf } from './streamClient.js';

const account = (identifier: string) => ({ platform: 'github', type: 'account', identifier });

// One server for the tests that end it with SIGTERM or not at all; each has its own account,
// and the SIGTERM test is the last of them.
const data = tempDataDir(t);
const alice = await provision(data, 'alice');
const leaky = await provision(data, 'leaky');
const sleepy = await provision(data, 'sleepy');
const server = await startServer(t, ['--data', data, '--upstream', 'emulator', '--threads', '2']);

t.test('stream threads - a token revoked with the CLI loses its connections on every edge within 1 s', async (t) => {
  const clients = await Promise.all(Array.from({ length: 6 }, () => StreamClient.open(t, server.url, leaky.secret)));
  t.equal((await cliInProcess(['tokens', 'revoke', leaky.id, '--data', data])).status, 0);
  const revokedAt = Date.now();
  for (const client of clients) t.same(await client.closed, { code: 4001, reason: 'The bearer token is unknown or revoked' });
  t.ok(Date.now() - revokedAt < 1_000, `closed ${Date.now() - revokedAt} ms after the CLI returned`);
});

t.test('stream threads - a client that stops reading is closed with 4002 on an edge', async (t) => {
  const client = await StreamClient.open(t, server.url, sleepy.secret);
  const unsubscribe = JSON.stringify({
    type: 'unsubscribe',
    resources: Array.from({ length: 10 }, (_, index) => account(`sleepy-${'x'.repeat(20)}-${index}`)),
  });
  client.socket.pause();
  await client.floodUntilClosed(unsubscribe);
  client.socket.resume();
  t.same(await client.closed, { code: 4002, reason: 'More than 262144 bytes unread; read faster' });
});

t.test('stream threads - every edge forwards pending -> available; tickets cross edges; SIGTERM closes with 1001', async (t) => {
  // Eight connections: the kernel spreads them over both edges.
  const clients = await Promise.all(
    Array.from({ length: 8 }, async (_, index) => {
      if (index % 2 === 0) return StreamClient.open(t, server.url, alice.secret);
      const issued = await fetch(server.url + ticketsPath, { method: 'POST', headers: { authorization: `Bearer ${alice.secret}` } });
      return StreamClient.open(t, server.url, { ticket: (await issued.json()).ticket });
    }),
  );
  const fresh = account('threaded-new');
  for (const client of clients) client.send({ type: 'subscribe', resources: [fresh] });
  for (const client of clients) t.same((await client.next()).data, [{ ...fresh, status: 'pending' }]);
  const updates = await Promise.all(clients.map((client) => client.next(updateOf(fresh, 'available'))));
  t.equal(new Set(updates.map((update) => JSON.stringify(update))).size, 1, 'every connection got the same update');
  const stopped = server.stop('SIGTERM');
  for (const client of clients) t.same(await client.closed, { code: 1001, reason: 'The service is shutting down' });
  t.equal((await stopped).code, 0);
});

t.test('stream - kill -9: the client sees the connection drop, resubscribes after a restart, the data is intact', async (t) => {
  const data = tempDataDir(t);
  const token = await provision(data, 'survivor');
  const args = ['--data', data, '--upstream', 'emulator', '--threads', '2'];
  const first = await startServer(t, args);
  const client = await StreamClient.open(t, first.url, token.secret);
  const resources = [account('octocat'), account('missing-user')];
  client.send({ type: 'subscribe', resources });
  await client.next();
  const available = await client.next(updateOf(resources[0]!, 'available'));
  await client.next(updateOf(resources[1]!, 'not_found'));
  await first.stop('SIGKILL');
  t.equal((await client.closed).code, 1006, 'an abnormal close: no close frame from a killed server');
  const second = await startServer(t, args);
  const again = await StreamClient.open(t, second.url, token.secret);
  again.send({ type: 'subscribe', resources });
  const resubscribed = await again.next();
  t.same(resubscribed.data, [available.data[0], { ...resources[1], status: 'not_found' }], 'the views committed before the kill');
  t.equal((await second.stop('SIGTERM')).code, 0);
});
