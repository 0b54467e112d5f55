// What each role of a cluster node does (docs/cluster.md#node-roles): a collect node answers
// no searches but serves its readiness; a search node answers searches and asks the cluster's
// queue for collections, but collects nothing itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import t from 'tap';
import { collectionQueueNames } from '../../src/cluster/collectionStream.js';
import { closeNats, connectNats } from '../../src/cluster/natsConnection.js';
import { cliInProcess, startServer, lastLine } from '../helpers/cli.js';
import { startNatsServer } from '../helpers/natsServer.js';
import { eventually } from '../helpers/service.js';

const searchPath = '/api/v1/resources/search';

t.test('a collect node and a search node', async (t) => {
  const nats = await startNatsServer(t);
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'datapoints-node-')));
  t.teardown(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const collector = await startServer(t, ['--nats', nats.url, '--role', 'collect', '--data', dirs[0]!, '--upstream', 'emulator']);
  const searcher = await startServer(t, ['--nats', nats.url, '--role', 'search', '--data', dirs[1]!, '--upstream', 'emulator']);
  t.equal((await cliInProcess(['accounts', 'create', 'acme', '--nats', nats.url])).status, 0);
  const secret = lastLine((await cliInProcess(['tokens', 'create', 'acme', '--nats', nats.url])).stdout);
  // The account reaches the search node through NATS: an empty search is refused 401 until it has.
  await eventually(
    async () =>
      (await fetch(searcher.url + searchPath, { method: 'POST', headers: { authorization: `Bearer ${secret}` }, body: '{}' })).status,
    (status) => status !== 401,
  );

  const refused = await fetch(collector.url + searchPath, { method: 'POST', headers: { authorization: `Bearer ${secret}` }, body: '{}' });
  t.equal(refused.status, 404, 'a collect node has no search path');
  t.same(await refused.json(), { error: `No such endpoint: POST ${searchPath}` });
  const ready = await fetch(`${collector.url}/readyz`);
  t.equal(ready.status, 200);
  t.same(await ready.json(), { ready: true, problems: [] });

  // Stop the collector: whatever the search node asks for stays in the queue, as it collects nothing.
  await collector.stop();
  const body = '{"resources":[{"platform":"github","type":"account","identifier":"torvalds"}]}';
  const answered = await fetch(searcher.url + searchPath, { method: 'POST', headers: { authorization: `Bearer ${secret}` }, body });
  t.equal(answered.status, 200);
  t.same(await answered.json(), { data: [{ platform: 'github', type: 'account', identifier: 'torvalds', status: 'pending' }] });
  // No node collects now, so once the request is queued it stays: wait for it, then count.
  const connection = await connectNats({ servers: [nats.url], name: 'observer' });
  t.teardown(() => closeNats(connection, 500));
  const manager = await jetstreamManager(connection);
  const stream = await eventually(
    () => manager.streams.info(collectionQueueNames.stream),
    (info) => info.state.messages > 0,
  );
  t.equal(stream.state.messages, 1, 'the request waits in the queue, uncollected');
  await searcher.stop();
});
