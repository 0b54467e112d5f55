// Crash safety of due work (docs/guarantees.md#crash-safety): a refresh and a retry that fall due while the server is
// dead (killed with SIGKILL) run after it restarts. Nothing asks for them but the due index on
// disk (streams/dueWork.ts): the restarted server gets no search at all.
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { createAccount, issueToken } from '../../src/access/provisioning.js';
import { limits } from '../../src/config.js';
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

t.test('crash - a refresh and a retry due while the server was killed run after restart', async (t) => {
  const data = tempDataDir(t);
  const secret = await withDatabases(data, async (dbs) => {
    const accounts = new AccountStore(dbs);
    await createAccount(accounts, 'ops', { plan: 'paid' }, Date.now());
    return (await issueToken(accounts, 'ops', Date.now())).secret;
  });
  const baseline = await withDatabases(data, readAuthBaseline);
  // One server is killed after it admitted searches: it may hold one reserved block unspent.
  const tally: Tally = { sent: 0, counted: 0, refused: 0, leeway: limits.quotaReservation.maxBlock };

  const first = spawnServer(t, serveArgs(data));
  const url = await first.listening;
  const search = async () => {
    tally.sent += 1;
    const response = await fetch(url + searchPath, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ resources }),
    });
    if (response.status === 200) tally.counted += 1;
    return ((await response.json()) as { data: Array<{ status: string }> }).data.map((entry) => entry.status);
  };
  const settled = await eventually(search, (statuses) => statuses[0] === 'available' && statuses[1] === 'unavailable');
  t.same(settled, ['available', 'unavailable'], 'collected once, and failed once, before the crash');
  await first.kill();

  const before = await withDatabases(data, (dbs) => ({
    refreshed: dbs.resources.get(refreshed) as StoredResource,
    retried: dbs.resources.get(retried) as StoredResource,
  }));
  // Both fall due while no server runs.
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
