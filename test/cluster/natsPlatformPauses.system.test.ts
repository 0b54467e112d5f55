// Platform pauses shared through NATS KV against the PlatformPauses contract, and what only a
// cluster's pauses must do: reach another node fast (the figure is printed), pause the announcing
// node even when NATS is gone, and survive an entry that is not a time.
import { jetstream } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import type { Logger } from 'pino';
import t, { type Test } from 'tap';
import { closeNats, connectNats } from '../../src/cluster/natsConnection.js';
import { NatsPlatformPauses, pausesBucket } from '../../src/seams/platformPauses/natsPlatformPauses.js';
import { heard, heardWithin, platformPausesContract } from '../../src/seams/platformPauses/platformPauses.contract.js';
import { startNatsServer } from '../helpers/natsServer.js';
import { eventually } from '../helpers/service.js';

interface Warning {
  fields: unknown;
  message: string;
}

async function openNode(t: Test, url: string, name: string, warnings: Warning[] = []) {
  const connection = await connectNats({ servers: [url], name });
  const log = { warn: (fields: unknown, message: string) => warnings.push({ fields, message }) } as unknown as Logger;
  const pauses = await NatsPlatformPauses.open(connection, { requestTimeoutMs: 1_000, now: Date.now, log });
  t.teardown(async () => {
    pauses.stop();
    await closeNats(connection, 500);
  });
  return { connection, pauses };
}

platformPausesContract(t, 'NATS platform pauses', async (t) => {
  const server = await startNatsServer(t);
  const [a, b] = await Promise.all([openNode(t, server.url, 'a'), openNode(t, server.url, 'b')]);
  return { nodes: [a.pauses, b.pauses], join: async () => (await openNode(t, server.url, 'joiner')).pauses };
});

t.test('NATS platform pauses - a pause announced on one node reaches another within milliseconds on loopback', async (t) => {
  const server = await startNatsServer(t);
  const [a, b] = await Promise.all([openNode(t, server.url, 'a'), openNode(t, server.url, 'b')]);
  const delays: number[] = [];
  for (let n = 0; n < 100; n++) {
    const pause = { upstream: 'github', until: Date.now() + 60_000 + n } as const;
    const reached = heard(b.pauses, pause);
    const announced = performance.now();
    a.pauses.announce(pause.upstream, pause.until);
    await reached;
    delays.push(performance.now() - announced);
  }
  delays.sort((x, y) => x - y);
  const at = (share: number) => delays[Math.min(delays.length - 1, Math.floor(share * delays.length))]!.toFixed(2);
  t.comment(`pause propagation over 100 announcements: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`);
  t.equal(delays.length, 100, 'every pause reached the other node');
});

t.test('NATS platform pauses - the announcing node pauses at once with NATS gone, and says it paused alone', async (t) => {
  const server = await startNatsServer(t);
  const warnings: Warning[] = [];
  const { pauses } = await openNode(t, server.url, 'a', warnings);
  await server.kill();
  const pause = { upstream: 'x', until: Date.now() + 60_000 } as const;
  const hearing = heard(pauses, pause);
  pauses.announce(pause.upstream, pause.until);
  t.same(await hearing, pause);
  t.match(
    await eventually(
      async () => warnings,
      (seen) => seen.length > 0,
    ),
    [{ message: 'platform pause not shared with the cluster; this node pauses alone' }],
  );
});

t.test('NATS platform pauses - an entry that is not a time is skipped with a warning, and a pause overwrites it', async (t) => {
  const server = await startNatsServer(t);
  const warnings: Warning[] = [];
  const a = await openNode(t, server.url, 'a', warnings);
  const b = await openNode(t, server.url, 'b');
  await (await new Kvm(jetstream(a.connection)).open(pausesBucket)).put('github', 'soon');
  t.same(await heardWithin(a.pauses.paused), [], 'nothing heard');
  t.match(warnings, [{ message: 'platform pause entry is not a time; ignored' }]);
  const pause = { upstream: 'github', until: Date.now() + 60_000 } as const;
  const hearing = heard(a.pauses, pause);
  b.pauses.announce(pause.upstream, pause.until);
  t.same(await hearing, pause);
});
