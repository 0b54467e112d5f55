// NATS trouble is not an outage (docs/cluster.md#nats-outage): a node cut off from NATS says
// so on /readyz, spends the quota it holds, then answers counted requests 503 with Retry-After,
// never uncounted; once nats-server is back on its store, the node goes on by itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { cliInProcess, startServer, type ServerProcess, lastLine } from '../helpers/cli.js';
import { eventually } from '../helpers/eventually.js';
import { startNatsServer } from '../helpers/natsServer.js';

async function search(node: ServerProcess, secret: string) {
  const response = await fetch(`${node.url}/api/v1/resources/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
    body: '{"resources":[]}',
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
}

async function readiness(node: ServerProcess): Promise<unknown> {
  return (await fetch(`${node.url}/readyz`)).json();
}

t.test('a node keeps answering through a NATS outage and recovers by itself', async (t) => {
  const nats = await startNatsServer(t);
  const dir = mkdtempSync(join(tmpdir(), 'datapoints-node-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const node = await startServer(t, ['--nats', nats.url, '--data', dir, '--upstream', 'emulator', '--threads', '1']);
  t.equal((await cliInProcess(['accounts', 'create', 'acme', '--rate', '100000/1m', '--nats', nats.url])).status, 0);
  const secret = lastLine((await cliInProcess(['tokens', 'create', 'acme', '--nats', nats.url])).stdout);
  // The account reaches the node through NATS: 401 until it has.
  const up = await eventually(
    () => search(node, secret),
    (answer) => answer.status !== 401,
  );
  t.equal(up.status, 422, 'counted and answered while NATS is up');

  await nats.kill();
  t.match(
    await eventually(
      () => readiness(node),
      (readyz) => (readyz as { ready: boolean }).ready === false,
    ),
    {
      ready: false,
      problems: [{ component: 'nats', message: 'not connected', since: /Z$/, count: 1 }],
    },
  );
  const during = await Promise.all(Array.from({ length: 20 }, () => search(node, secret)));
  const admitted = during.filter((answer) => answer.status === 422).length;
  const unavailable = during.filter((answer) => answer.status === 503);
  t.equal(admitted + unavailable.length, 20, 'answered from units in hand, or 503: never uncounted');
  t.ok(unavailable.length > 0, 'once the units in hand are spent, 503');
  for (const answer of unavailable) {
    t.equal(answer.retryAfter, '2');
    t.equal(answer.body, '{"error":"Requests cannot be counted right now; retry after 2 seconds"}');
  }

  await nats.restart();
  await eventually(
    () => search(node, secret),
    (answer) => answer.status === 422,
    {
      timeoutMs: 15_000,
      intervalMs: 100,
      orFail: 'the node counting again after NATS came back',
    },
  );
  t.same(await readiness(node), { ready: true, problems: [] }, 'ready again');
  const shown = JSON.parse((await cliInProcess(['accounts', 'show', 'acme', '--nats', nats.url])).stdout);
  t.ok(shown.usage.used >= 2 + admitted, `the ledger kept every count across the restart (${shown.usage.used})`);
  await node.stop();
});
