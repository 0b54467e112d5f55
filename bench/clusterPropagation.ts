// Change propagation in a cluster: a change collected on node A, timed from its `collected_at` to
// its update at a stream client of node B, which only follows the resource log (bench/README.md#cluster).
import { rmSync } from 'node:fs';
import { WebSocket } from 'undici';
import { startNats } from './clusterNats.js';
import { seedCluster } from './clusterSeed.js';
import { scratchDir } from './datasets.js';
import { log, sleep } from './log.js';
import { quick } from './options.js';
import { cliEntry, loadCore, serverCore, startPinned, startServer, type RunningServer } from './processes.js';
import { benchIdentifier } from './seed.js';
import { everyClient, openClient, percentile, type Client } from './streamClients.js';

const resourceCount = 1_000;
const freshForSeconds = 10;
/** References per subscribe message (at most 10, as a search: docs/push.md#subscribe). */
const perMessage = 10;
const connectionCount = 20;
const measureSeconds = quick ? 4 : 20;
/** Seeding, both nodes starting and the subscriptions fit in this; the first refreshes fall due after it. */
const setupSeconds = quick ? 10 : 20;
/** After the first refreshes fell due, this long for them to reach a steady pace (a full round with a full run). */
const spreadSeconds = quick ? freshForSeconds / 2 : freshForSeconds;

export interface PropagationFigures {
  resources: number;
  changesPerSecond: number;
  updates: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface Entry {
  identifier: string;
  metrics?: { followers?: { collected_at?: string } };
}

const reference = (index: number) => ({ platform: 'github', type: 'account', identifier: benchIdentifier(index) });

/** Subscribes client `c` to resources c, c + connections, c + 2 x connections, ... in messages of 10. */
async function subscribeAll(clients: readonly Client[]): Promise<void> {
  const perClient = resourceCount / clients.length;
  for (let message = 0; message < perClient / perMessage; message++) {
    await everyClient(
      clients,
      (client) => ({
        type: 'subscribe',
        resources: Array.from({ length: perMessage }, (_, offset) =>
          reference(client.index + (message * perMessage + offset) * clients.length),
        ),
      }),
      'subscribed',
    );
  }
}

export async function clusterPropagation(): Promise<PropagationFigures> {
  log(`propagation: ${resourceCount} resources refreshed every ${freshForSeconds} s on node A, followed on node B`);
  const started = Date.now();
  const nats = await startNats('propagation');
  const dirs = ['a', 'b'].map((name) => scratchDir(`cluster-propagation-${name}`));
  const servers: RunningServer[] = [];
  const clients: Client[] = [];
  try {
    const token = await seedCluster(nats.url, {
      count: resourceCount,
      due: { from: 0, at: started + setupSeconds * 1000, spreadMs: freshForSeconds * 1000 },
    });
    const emulator = await startPinned([loadCore], [cliEntry, 'emulator', '--port', '0']);
    servers.push(emulator);
    const cluster = ['--nats', nats.url, '--fresh-for', `${freshForSeconds}s`];
    servers.push(
      await startServer({ data: dirs[0]!, upstream: emulator.url, threads: 1, core: serverCore, flags: [...cluster, '--role', 'collect'] }),
    );
    const nodeB = await startServer({ data: dirs[1]!, threads: 1, core: loadCore, flags: [...cluster, '--role', 'search'] });
    servers.push(nodeB);
    for (let index = 0; index < connectionCount; index++) clients.push(await openClient(nodeB.url, token, index));
    await subscribeAll(clients);

    const delays: number[] = [];
    const lastCollected = new Map<string, number>();
    let measuring = false;
    for (const { socket } of clients) {
      socket.addEventListener('message', (event) => {
        const arrived = Date.now();
        const message = JSON.parse(String(event.data)) as { type: string; data?: Entry[] };
        if (message.type !== 'update') return;
        for (const entry of message.data ?? []) {
          const collectedAt = Date.parse(entry.metrics?.followers?.collected_at ?? '');
          // Only a new collection is a change to time; anything else that reaches a client is not one.
          if (!(collectedAt > (lastCollected.get(entry.identifier) ?? 0))) continue;
          lastCollected.set(entry.identifier, collectedAt);
          if (measuring) delays.push(arrived - collectedAt);
        }
      });
    }
    const dueIn = started + setupSeconds * 1000 - Date.now();
    if (dueIn < 0) log(`  the set-up took ${(-dueIn / 1000).toFixed(1)} s longer than planned: the first refreshes came at once`);
    log(`  waiting ${Math.round(Math.max(0, dueIn) / 1000) + spreadSeconds} s for the refreshes to fall due and spread`);
    await sleep(Math.max(0, dueIn) + spreadSeconds * 1000);
    log(`  timing updates for ${measureSeconds} s`);
    measuring = true;
    await sleep(measureSeconds * 1000);
    measuring = false;
    const open = clients.every((client) => client.socket.readyState === WebSocket.OPEN);
    if (!open) throw new Error('a stream connection to node B closed while measuring');
    const sorted = delays.sort((a, b) => a - b);
    if (sorted.length === 0) throw new Error('no update reached node B while measuring');
    return {
      resources: resourceCount,
      changesPerSecond: sorted.length / measureSeconds,
      updates: sorted.length,
      p50Ms: percentile(sorted, 0.5),
      p99Ms: percentile(sorted, 0.99),
      maxMs: sorted.at(-1)!,
    };
  } finally {
    for (const { socket } of clients) socket.close();
    await Promise.all(servers.map((server) => server.stop()));
    await nats.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
