// `node dist/bench/push.js [--quick]`: what the resource stream (docs/push.md) costs one server on one
// core: memory a connection and a subscription, update latency p50/p99, searches beside it (bench/README.md#push).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { WebSocket } from 'undici';
import { createAccount, issueToken } from '../src/access/provisioning.js';
import { limits } from '../src/config.js';
import { AccountStore } from '../src/store/accountStore.js';
import { openDatabases } from '../src/store/environment.js';
import { freshDataSet } from './datasets.js';
import { measure } from './measure.js';
import { memoryOf } from './memory.js';
import { log, sleep } from './log.js';
import { quick, timing } from './options.js';
import { preflight } from './preflight.js';
import { loadCore, startServer } from './processes.js';
import { warmTen } from './scenarios.js';
import { everyClient, openClient, openInParallel, percentile, type Client } from './streamClients.js';
import { benchIdentifier } from './seed.js';
import { ensureWrk } from './wrk.js';

const connectionCount = Number(process.env.PUSH_CONNECTIONS ?? 10_000);
/** Each refresh is a change: with 10 s, N followed resources change N / 10 times a second. */
const freshForSeconds = 10;
const extraSubscriptions = 9;

/** Accounts enough for the connections (limits.push.maxConnectionsPerAccount each), with tokens. */
async function provisionAccounts(dataDir: string, count: number): Promise<string[]> {
  const dbs = openDatabases(dataDir);
  try {
    const accounts = new AccountStore(dbs);
    const tokens: string[] = [];
    for (let index = 0; index < count; index++) {
      const name = `push-${index}`;
      await createAccount(accounts, name, { plan: 'paid', quota: null, rate: { limit: 1e9, windowMs: 60_000 } }, Date.now());
      tokens.push((await issueToken(accounts, name, Date.now())).secret);
    }
    return tokens;
  } finally {
    await dbs.root.close();
  }
}

const reference = (index: number) => ({ platform: 'github', type: 'account', identifier: benchIdentifier(index % connectionCount) });

const mib = (pid: number) => memoryOf(pid).anonMiB;

async function settledMemory(pid: number): Promise<number> {
  await sleep(2_000);
  return mib(pid);
}

async function main(): Promise<void> {
  execFileSync('taskset', ['-pc', String(loadCore), String(process.pid)], { stdio: 'ignore' });
  ensureWrk();
  const started = Date.now();
  log(`push bench: ${connectionCount} connections, fresh-for ${freshForSeconds} s${quick ? ' (--quick)' : ''}`);
  // The resources fall due spread over 10 s once the set-up below is done; each refresh then recurs 10 s later.
  const setupSeconds = 30 + connectionCount / 200;
  const data = await freshDataSet('push', {
    count: connectionCount,
    due: { from: 0, at: started + setupSeconds * 1000, spreadMs: freshForSeconds * 1000 },
  });
  const tokens = await provisionAccounts(data.dir, Math.ceil(connectionCount / limits.push.maxConnectionsPerAccount));
  const server = await startServer({ data: data.dir, threads: 1, flags: ['--fresh-for', `${freshForSeconds}s`] });
  const clients: Client[] = [];
  try {
    const scenario = warmTen(data.token);
    await preflight(server.url, scenario.shape, scenario.expectStatus, scenario.check);
    // Memory first: the heap a search run leaves behind would hide what connections add.
    const idle = await settledMemory(server.pid);
    log('  warm search, no connections');
    const noStreams = await measure(server.url, scenario.shape, timing);
    // Settled again, so that what the connections add is not hidden by what the searches left.
    const beforeConnections = await settledMemory(server.pid);

    log(`  opening ${connectionCount} connections`);
    for (let start = 0; start < connectionCount; start += openInParallel) {
      const batch = Array.from({ length: Math.min(openInParallel, connectionCount - start) }, (_, offset) => start + offset);
      clients.push(
        ...(await Promise.all(
          batch.map((index) => openClient(server.url, tokens[Math.floor(index / limits.push.maxConnectionsPerAccount)]!, index)),
        )),
      );
    }
    const connected = await settledMemory(server.pid);
    log('  one subscription each');
    await everyClient(clients, (client) => ({ type: 'subscribe', resources: [reference(client.index)] }), 'subscribed');
    const subscribed = await settledMemory(server.pid);
    log(`  ${extraSubscriptions} more subscriptions each`);
    const extra = (client: Client) =>
      Array.from({ length: extraSubscriptions }, (_, offset) => reference(client.index + (offset + 1) * 997));
    await everyClient(clients, (client) => ({ type: 'subscribe', resources: extra(client) }), 'subscribed');
    const tenEach = await settledMemory(server.pid);
    await everyClient(clients, (client) => ({ type: 'unsubscribe', resources: extra(client) }), 'unsubscribed');
    log('  warm search, streams open, nothing changing yet');
    const alone = await measure(server.url, scenario.shape, timing);

    const latencies: number[] = [];
    let measuring = false;
    for (const { socket } of clients) {
      socket.addEventListener('message', (event) => {
        if (!measuring) return;
        const message = JSON.parse(String(event.data));
        if (message.type !== 'update') return;
        latencies.push(Date.now() - Date.parse(message.data[0].metrics.followers.collected_at));
      });
    }
    const dueIn = started + setupSeconds * 1000 - Date.now();
    log(`  waiting ${Math.max(0, Math.round(dueIn / 1000))} s for the refreshes, then ${freshForSeconds} s for them to spread`);
    await sleep(Math.max(0, dueIn) + freshForSeconds * 1000);
    log('  warm search while every resource changes every 10 s');
    measuring = true;
    const windowStarted = performance.now();
    const during = await measure(server.url, scenario.shape, { ...timing, warmupSeconds: 0 });
    const windowSeconds = (performance.now() - windowStarted) / 1000;
    measuring = false;
    const sorted = [...latencies].sort((a, b) => a - b);
    const out = (line: string) => process.stdout.write(`${line}\n`);
    out(`connections: ${clients.length} (all open at the end: ${clients.every((client) => client.socket.readyState === WebSocket.OPEN)})`);
    out(
      `server anonymous memory, MiB: idle ${idle.toFixed(1)}, after searches ${beforeConnections.toFixed(1)}, ${connectionCount} connections ${connected.toFixed(1)}, ` +
        `1 subscription each ${subscribed.toFixed(1)}, 10 each ${tenEach.toFixed(1)}`,
    );
    out(
      `per connection: ${(((connected - beforeConnections) * 1024 * 1024) / connectionCount).toFixed(0)} bytes; ` +
        `per subscription: first ${(((subscribed - connected) * 1024 * 1024) / connectionCount).toFixed(0)} bytes, ` +
        `next ${(((tenEach - subscribed) * 1024 * 1024) / (connectionCount * extraSubscriptions)).toFixed(0)} bytes`,
    );
    out(
      `updates received while measuring: ${latencies.length} in ${windowSeconds.toFixed(1)} s (${(latencies.length / windowSeconds).toFixed(0)} changes/s)`,
    );
    out(`collection to client, ms: p50 ${percentile(sorted, 0.5)}, p99 ${percentile(sorted, 0.99)}, max ${sorted.at(-1)}`);
    out(
      `warm search req/s (p99 ms): no connections ${noStreams.requestsPerSecond.toFixed(0)} (${noStreams.p99Ms.toFixed(1)}), ` +
        `streams idle ${alone.requestsPerSecond.toFixed(0)} (${alone.p99Ms.toFixed(1)}), ` +
        `during ${during.requestsPerSecond.toFixed(0)} (${during.p99Ms.toFixed(1)}); ` +
        `during / no connections ${(during.requestsPerSecond / noStreams.requestsPerSecond).toFixed(2)}, ` +
        `during / streams idle ${(during.requestsPerSecond / alone.requestsPerSecond).toFixed(2)}`,
    );
  } finally {
    for (const { socket } of clients) socket.close();
    await server.stop();
    rmSync(data.dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`push bench failed: ${String(error instanceof Error ? error.stack : error)}\n`);
  process.exit(1);
});
