// Crash safety of due work (docs/guarantees.md#crash-safety): a refresh and a retry that fall due while the server is
// dead (killed with SIGKILL) run after it restarts, and so does a refresh the server was
// collecting when it was killed, at once rather than after its lease
// (docs/architecture.md#leases-in-memory). Nothing asks for them but the due index on disk
// (streams/dueWork.ts): the restarted server gets no search at all.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { createAccount, issueToken } from '../../src/access/provisioning.js';
import { defaultPolicy, limits } from '../../src/config.js';
import { startEmulator } from '../../src/emulator/server.js';
import { AccountStore } from '../../src/store/accountStore.js';
import type { StoredResource } from '../../src/store/resourceStore.js';
import { eventually, searchPath, tempDataDir } from '../helpers/service.js';
import { inspectStore, readAuthBaseline, withDatabases } from './integrity.js';
import type { Tally } from './load.js';
import { spawnServer } from './serverProcess.js';

// A refresh is due 1 s after a collection, a first retry 0.5-1 s after a failure (docs/api.md#a-22, docs/api.md#a-24).
const serveArgs = (data: string) => ['--data', data, '--upstream', 'emulator', '--fresh-for', '1s', '--retry-base', '1s'];
// The emulator answers every `flaky` name with 503 (docs/operations.md#emulator).
const resources = [
  { platform: 'github', type: 'account', identifier: 'duefresh' },
  { platform: 'tiktok', type: 'account', identifier: 'flakydue' },
];
const refreshed = 'github/account/duefresh';
const retried = 'tiktok/account/flakydue';

/** An account with a token in a fresh data directory, and the tally of its searches for the usage bound. */
async function provisioned(t: Test) {
  const data = tempDataDir(t);
  const secret = await withDatabases(data, async (dbs) => {
    const accounts = new AccountStore(dbs);
    await createAccount(accounts, 'ops', { plan: 'paid' }, Date.now());
    return (await issueToken(accounts, 'ops', Date.now())).secret;
  });
  const baseline = await withDatabases(data, readAuthBaseline);
  // One server is killed after it admitted searches: it may hold one reserved block unspent.
  const tally: Tally = { sent: 0, counted: 0, refused: 0, leeway: limits.quotaReservation.maxBlock };
  const searcher = (url: string, searched: typeof resources) => async () => {
    tally.sent += 1;
    const response = await fetch(url + searchPath, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ resources: searched }),
    });
    if (response.status === 200) tally.counted += 1;
    return ((await response.json()) as { data: Array<{ status: string }> }).data.map((entry) => entry.status);
  };
  return { data, baseline, tally, searcher };
}

t.test('crash - a refresh and a retry due while the server was killed run after restart', async (t) => {
  const { data, baseline, tally, searcher } = await provisioned(t);
  const first = spawnServer(t, serveArgs(data));
  const search = searcher(await first.listening, resources);
  const settled = await eventually(search, (statuses) => statuses[0] === 'available' && statuses[1] === 'unavailable');
  t.same(settled, ['available', 'unavailable'], 'collected once, and failed once, before the crash');
  await first.kill();

  const before = await withDatabases(data, (dbs) => ({
    refreshed: dbs.resources.get(refreshed) as StoredResource,
    retried: dbs.resources.get(retried) as StoredResource,
  }));
  // Both fall due while no server runs. A server process reads its due times on the wall clock
  // (no flag sets another), so the wait is their own, kept short by the policy (1 s, serveArgs).
  await sleep(Math.max(0, before.refreshed.context.nextDueAt - Date.now(), before.retried.context.nextDueAt - Date.now()) + 100);

  const restartedAt = Date.now();
  const second = spawnServer(t, serveArgs(data));
  await second.listening;
  const after = await withDatabases(data, async (dbs) => {
    const read = async () => {
      dbs.root.resetReadTxn(); // see the server's commits (docs/dependencies.md#lmdb-two-processes)
      return { refreshed: dbs.resources.get(refreshed) as StoredResource, retried: dbs.resources.get(retried) as StoredResource };
    };
    const ranSinceRestart = (resource: StoredResource) => (resource.context.history.at(-1)?.at ?? 0) >= restartedAt;
    return eventually(read, (now) => ranSinceRestart(now.refreshed) && ranSinceRestart(now.retried), 10_000);
  });
  await second.kill();

  t.equal(after.refreshed.value, 'available');
  t.match(after.refreshed.context.history.at(-1), { event: 'COLLECTED', to: 'available' }, 'the refresh ran');
  t.ok(after.refreshed.context.lastSuccessAt! >= restartedAt, 'collected by the restarted server');
  t.equal(after.retried.value, 'unavailable');
  t.match(after.retried.context.history.at(-1), { event: 'FAILED', to: 'unavailable' }, 'the retry ran');
  t.ok(after.retried.context.history.at(-1)!.at >= restartedAt, 'retried by the restarted server');
  t.ok(after.retried.context.failures > before.retried.context.failures, 'the failed retry backs off further');

  const store = await withDatabases(data, (dbs) => inspectStore(dbs, baseline, new Map([['ops', tally]]), new Map()));
  t.same(store.problems, [], 'the data is whole after both crashes');
});

/**
 * An emulator in this process behind a proxy that, while `holding`, never answers a call for
 * `held` and resolves `arrived` instead: a collection under way for as long as the test wants.
 */
async function holdingUpstream(t: Test, held: string) {
  const emulator = await startEmulator(0);
  t.teardown(() => emulator.close());
  let arrived: () => void = () => undefined;
  const control = { holding: false, arrived: new Promise<void>((resolve) => (arrived = resolve)) };
  // The collectors only GET; the connection's own headers stay with each hop.
  const hopByHop = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'content-encoding']);
  const endToEnd = (headers: Iterable<[string, string | string[] | undefined]>) =>
    [...headers].filter((entry): entry is [string, string] => typeof entry[1] === 'string' && !hopByHop.has(entry[0]));
  const forward = async (request: IncomingMessage, response: ServerResponse) => {
    const answer = await fetch(emulator.url + request.url, { headers: endToEnd(Object.entries(request.headers)) });
    const body = Buffer.from(await answer.arrayBuffer());
    response.writeHead(answer.status, Object.fromEntries(endToEnd(answer.headers))).end(body);
  };
  const proxy = createServer((request, response) => {
    if (control.holding && request.url?.includes(held)) return arrived();
    forward(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  t.teardown(() => proxy.close());
  proxy.on('connection', (socket) => t.teardown(() => socket.destroy()));
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, control };
}

t.test('crash - a refresh under way when the server was killed is collected at once after restart, not after its lease', async (t) => {
  const { data, baseline, tally, searcher } = await provisioned(t);
  const identifier = 'leasedrefresh';
  const key = `github/account/${identifier}`;
  const upstream = await holdingUpstream(t, identifier);
  const args = ['--data', data, '--upstream', upstream.url, '--fresh-for', '1s'];

  const first = spawnServer(t, args);
  const search = searcher(await first.listening, [{ platform: 'github', type: 'account', identifier }]);
  t.same(await eventually(search, (statuses) => statuses[0] === 'available'), ['available'], 'collected once');
  // A second later the refresh falls due, and its call is held: the server is collecting it.
  upstream.control.holding = true;
  await upstream.control.arrived;
  await first.kill();
  upstream.control.holding = false;

  const killed = await withDatabases(data, (dbs) => dbs.resources.get(key) as StoredResource);
  t.ok(killed.context.nextDueAt <= Date.now(), 'no lease was committed: it is due');

  const restartedAt = Date.now();
  const second = spawnServer(t, args);
  await second.listening;
  const after = await withDatabases(data, async (dbs) => {
    const read = async () => {
      dbs.root.resetReadTxn(); // see the server's commits (docs/dependencies.md#lmdb-two-processes)
      return dbs.resources.get(key) as StoredResource;
    };
    // Well before the lease would have ended (defaultPolicy.leaseMs, 60 s).
    return eventually(read, (now) => (now.context.lastSuccessAt ?? 0) >= restartedAt, defaultPolicy.leaseMs / 3);
  });
  await second.kill();

  t.equal(after.value, 'available');
  t.ok(after.context.lastSuccessAt! >= restartedAt, 'collected by the restarted server');
  t.ok(after.context.lastSuccessAt! - restartedAt < defaultPolicy.leaseMs, 'before the lease it was given would have ended');
  const store = await withDatabases(data, (dbs) => inspectStore(dbs, baseline, new Map([['ops', tally]]), new Map()));
  t.same(store.problems, [], 'the data is whole after the crash');
});
