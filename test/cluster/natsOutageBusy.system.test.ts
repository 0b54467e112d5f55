// A busy account through a NATS outage (docs/cluster.md#nats-outage): with nats-server killed
// -9 while it searches, the node admits what the units it holds allow, then answers 503 with
// Retry-After at once: no answer waits out the 5 s NATS request timeout.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { clusterDefaults } from '../../src/config.js';
import { cliInProcess, startServer, type ServerProcess, lastLine } from '../helpers/cli.js';
import { startNatsServer } from '../helpers/natsServer.js';

interface Answer {
  status: number;
  retryAfter: string | null;
  ms: number;
  afterKill: boolean;
}

t.test('NATS outage - a busy account spends the units it holds, then gets 503 at once', async (t) => {
  const nats = await startNatsServer(t);
  const dir = mkdtempSync(join(tmpdir(), 'datapoints-node-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const node: ServerProcess = await startServer(t, ['--nats', nats.url, '--data', dir, '--upstream', 'emulator', '--threads', '1']);
  t.equal((await cliInProcess(['accounts', 'create', 'busy', '--quota', 'none', '--rate', '10000000/1d', '--nats', nats.url])).status, 0);
  const secret = lastLine((await cliInProcess(['tokens', 'create', 'busy', '--nats', nats.url])).stdout);

  let killed = false;
  const answers: Answer[] = [];
  const search = async (): Promise<Answer> => {
    const afterKill = killed;
    const started = performance.now();
    const response = await fetch(`${node.url}/api/v1/resources/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}` },
      body: '{"resources":[]}',
    });
    await response.text();
    return { status: response.status, retryAfter: response.headers.get('retry-after'), ms: performance.now() - started, afterKill };
  };
  // Four clients search back to back; the account is known to the node once its first 422 comes.
  // No monthly quota: the searches before the kill may run past any (a 403 would end the test).
  const client = async () => {
    for (;;) {
      const answer = await search();
      answers.push(answer);
      if (answer.status === 401) continue;
      // Anything but a count (422) or the outage's 503 fails the first assertion below; stop there.
      if (answer.status !== 422 && answer.status !== 503) return;
      if (answers.filter((each) => each.afterKill && each.status === 503).length >= 40) return;
    }
  };
  const clients = Array.from({ length: 4 }, client);
  // Busy for a while first: 400 counted requests.
  while (answers.filter((answer) => answer.status === 422).length < 400) await new Promise((resolve) => setImmediate(resolve));
  killed = true;
  await nats.kill();
  await Promise.all(clients);

  const during = answers.filter((answer) => answer.afterKill);
  const statuses = new Set(during.map((answer) => answer.status));
  t.same(
    [...statuses].filter((status) => status !== 422 && status !== 503),
    [],
    'answered from units in hand (422) or 503: never uncounted',
  );
  const admitted = during.filter((answer) => answer.status === 422).length;
  t.ok(admitted > 0, `${admitted} searches admitted after the kill from the units the node held`);
  const refused = during.filter((answer) => answer.status === 503);
  t.same(new Set(refused.map((answer) => answer.retryAfter)), new Set(['2']), 'each 503 says Retry-After: 2');
  const slowest = Math.max(...refused.map((answer) => answer.ms));
  t.ok(
    slowest < clusterDefaults.requestTimeoutMs,
    `no 503 waited out the ${clusterDefaults.requestTimeoutMs} ms request timeout (slowest ${Math.round(slowest)} ms)`,
  );
  await node.stop();
});
