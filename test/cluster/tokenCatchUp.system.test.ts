// A token made on the cluster is accepted at once by a node that hears the cluster late
// (docs/design/cluster.md#a-token-new-to-a-node): a node whose replica has not yet
// taken the token in asks the cluster before it refuses, and refuses only what the cluster
// does not hold either.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { cliInProcess, lastLine, startServer, type ServerProcess } from '../helpers/cli.js';
import { startLaggingRelay } from '../helpers/laggingRelay.js';
import { startNatsServer } from '../helpers/natsServer.js';
import { StreamClient } from '../push/streamClient.js';

/** Longer than a quiet node ever lags, shorter than the cluster's request timeout (5 s). */
const lagMs = 1_500;

function search(node: ServerProcess, secret: string): Promise<number> {
  return fetch(`${node.url}/api/v1/resources/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
    body: '{"resources":[]}',
  }).then(async (response) => {
    await response.arrayBuffer();
    return response.status;
  });
}

function ticket(node: ServerProcess, secret: string): Promise<number> {
  return fetch(`${node.url}/api/v1/resources/stream/tickets`, { method: 'POST', headers: { authorization: `Bearer ${secret}` } }).then(
    async (response) => {
      await response.arrayBuffer();
      return response.status;
    },
  );
}

t.test('a node whose replica lags accepts a token made on the cluster the moment it exists', async (t) => {
  const nats = await startNatsServer(t);
  const relay = await startLaggingRelay(t, nats.port);
  const dir = mkdtempSync(join(tmpdir(), 'datapoints-node-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // Two edge threads: each asks the resource thread, which alone reaches NATS.
  const node = await startServer(t, [
    '--nats',
    `nats://127.0.0.1:${relay.port}`,
    '--data',
    dir,
    '--upstream',
    'emulator',
    '--threads',
    '2',
  ]);
  const onCluster = (args: string[]) => cliInProcess([...args, '--nats', nats.url]);

  relay.setLag(lagMs);
  t.equal((await onCluster(['accounts', 'create', 'late'])).status, 0);
  const issued = await onCluster(['tokens', 'create', 'late']);
  t.equal(issued.status, 0, issued.stderr);
  const secret = lastLine(issued.stdout);

  const statuses = await Promise.all([search(node, secret), search(node, secret), ticket(node, secret)]);
  t.same(statuses, [422, 422, 201], 'searched at once on both edges and a stream ticket: accepted, not 401');
  t.equal(await search(node, 'dp_thisTokenWasNeverMadeAnywhere0000000000000'), 401, 'a token the cluster does not hold is refused');

  const another = lastLine((await onCluster(['tokens', 'create', 'late'])).stdout);
  const stream = await StreamClient.open(t, node.url, another);
  stream.send({ type: 'subscribe', resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] });
  t.equal((await stream.next()).data[0].status, 'pending', 'a stream opened at once with a token made a moment ago');
});
