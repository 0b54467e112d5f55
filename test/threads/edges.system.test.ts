// A server with two edge threads (docs/guarantees.md#threads), as a real process: quota exact
// across threads, views only ever move forward on every edge, CLI changes reach every edge, and
// SIGTERM under keep-alive load answers 503 with Connection: close. One server serves the file:
// each test has its own account and resource, and the SIGTERM test, which ends the server, is last.
import t from 'tap';
import { Pool } from 'undici';
import { monthOf } from '../../src/access/calendar.js';
import { openDatabases } from '../../src/store/environment.js';
import { UsageStore } from '../../src/seams/quotaLedger/usageStore.js';
import { cliInProcess, startServer } from '../helpers/cli.js';
import { provision, unlimitedPaid } from '../helpers/provision.js';
import { eventually, searchPath, tempDataDir } from '../helpers/service.js';

const unlimitedRate = unlimitedPaid.rate!;

function searchOn(pool: Pool, secret: string, resources: unknown[]) {
  return pool.request({
    path: searchPath,
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ resources }),
  });
}

const octocat = { platform: 'github', type: 'account', identifier: 'octocat' };

const data = tempDataDir(t);
const racer = await provision(data, 'racer', { quota: 100, rate: unlimitedRate });
const watcher = await provision(data, 'watcher', { plan: 'paid' });
const leaky = await provision(data, 'leaky', { plan: 'paid' });
const busy = await provision(data, 'busy', { plan: 'paid', rate: unlimitedRate });
// Fresh for 1 s: a watched resource is collected again and again while it is watched.
const server = await startServer(t, ['--data', data, '--upstream', 'emulator', '--threads', '2', '--fresh-for', '1s']);

t.test('threads - 1,000 concurrent requests at quota 100 over 2 edge threads admit exactly 100', async (t) => {
  const pool = new Pool(server.url, { connections: 200 });
  const statuses = await Promise.all(
    Array.from({ length: 1_000 }, async () => {
      const response = await searchOn(pool, racer.secret, [octocat]);
      await response.body.text();
      return response.statusCode;
    }),
  );
  await pool.close();
  t.equal(statuses.filter((status) => status === 200).length, 100);
  t.equal(statuses.filter((status) => status === 403).length, 900);
});

t.test('threads - every edge serves a committed view, and none ever goes back to an older one', async (t) => {
  const resource = { platform: 'github', type: 'account', identifier: 'watched' };
  // Separate pools: each keeps one connection, and a connection stays on one edge thread.
  const watchers = Array.from({ length: 8 }, () => new Pool(server.url, { connections: 1 }));
  const problems: string[] = [];
  const seen = watchers.map(() => ({ settled: false, collectedAt: '', collections: 0 }));
  // Watched until every connection has seen the resource collected three times.
  const watchedEnough = () => seen.every((last) => last.collections >= 3);
  // Each connection looks every 20 ms, so it sees each view the edges serve in turn.
  const look = async (pool: Pool, index: number) => {
    const response = await searchOn(pool, watcher.secret, [resource]);
    const entry = (
      JSON.parse(await response.body.text()) as { data: Array<{ status: string; metrics?: Record<string, { collected_at: string }> }> }
    ).data[0]!;
    const collectedAt = entry.metrics ? Object.values(entry.metrics)[0]!.collected_at : '';
    const last = seen[index]!;
    if (last.settled && entry.status === 'pending') problems.push(`connection ${index}: pending after available`);
    if (collectedAt < last.collectedAt) problems.push(`connection ${index}: ${collectedAt} after ${last.collectedAt}`);
    if (entry.status !== 'pending') last.settled = true;
    if (collectedAt > last.collectedAt) {
      last.collectedAt = collectedAt;
      last.collections += 1;
    }
    return watchedEnough();
  };
  await Promise.all(
    watchers.map((pool, index) =>
      eventually(
        () => look(pool, index),
        (enough) => enough,
        { timeoutMs: 60_000, intervalMs: 20 },
      ),
    ),
  );
  await Promise.all(watchers.map((pool) => pool.close()));
  t.same(problems, [], 'no connection saw a view older than one it had seen');
  t.ok(watchedEnough(), `every connection saw the resource collected three times: ${JSON.stringify(seen)}`);
  t.ok(
    new Set(seen.map((last) => last.collectedAt)).size <= 2,
    `connections end within one refresh of each other: ${JSON.stringify(seen)}`,
  );
});

t.test('threads - a token revoked with the CLI is refused by every edge within 1 s', async (t) => {
  const pools = Array.from({ length: 8 }, () => new Pool(server.url, { connections: 1 }));
  const statuses = async () =>
    Promise.all(
      pools.map(async (pool) => {
        const response = await searchOn(pool, leaky.secret, [octocat]);
        await response.body.text();
        return response.statusCode;
      }),
    );
  t.same(await statuses(), Array(8).fill(200));
  t.equal((await cliInProcess(['tokens', 'revoke', leaky.id, '--data', data])).status, 0);
  const refused = Array(8).fill(401);
  t.same(
    await eventually(statuses, (now) => JSON.stringify(now) === JSON.stringify(refused), 1_000),
    refused,
    'every connection, whichever edge holds it',
  );
  await Promise.all(pools.map((pool) => pool.close()));
});

t.test('threads - SIGTERM under keep-alive load: owed answers, then 503 with Connection: close, never a reset', async (t) => {
  const pool = new Pool(server.url, { connections: 16, pipelining: 1 });
  const answers = new Map<string, number>();
  const failures = new Map<string, number>();
  const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  let stopping = false;
  // The signal comes once every client has had answers: all 16 connections are busy.
  let loaded: () => void;
  const underLoad = new Promise<void>((resolve) => (loaded = resolve));
  // A client told 503 with Connection: close reconnects: every edge's listen socket must be closed
  // by then (src/threads/edges.ts, stopAll), so no connection is made after the first notice, the
  // kernel refuses it; one made would be answered by an edge still listening, or reset when that
  // edge closed its socket with the connection queued on it.
  let noticed = false;
  let connectedAfterNotice = 0;
  pool.on('connect', () => {
    if (noticed) connectedAfterNotice++;
  });
  const clients = Array.from({ length: 16 }, async () => {
    for (;;) {
      try {
        const response = await searchOn(pool, busy.secret, [octocat]);
        await response.body.text();
        const answer = `${response.statusCode} ${response.headers.connection ?? ''}`.trim();
        noticed ||= answer === '503 close';
        count(answers, answer);
        if ((answers.get('200') ?? 0) >= 160) loaded();
      } catch (error) {
        const code = (error as { code?: string }).code ?? String(error);
        count(failures, code);
        // Refused connections mean the port is closed: this client is done.
        if (code === 'ECONNREFUSED' || !stopping) return;
      }
    }
  });
  await underLoad;
  stopping = true;
  const stopped = await server.stop('SIGTERM');
  await Promise.all(clients);
  await pool.destroy();
  t.comment(`answers ${JSON.stringify(Object.fromEntries(answers))}; failures ${JSON.stringify(Object.fromEntries(failures))}`);
  t.equal(stopped.code, 0, 'exit 0');
  t.ok(stopped.ms < 5_000, `stopped in ${stopped.ms} ms`);
  t.ok((answers.get('503 close') ?? 0) > 0, 'keep-alive clients were told 503 with Connection: close');
  t.same([...failures.keys()], ['ECONNREFUSED'], 'after that only refused connections: no reset, no request lost mid-way');
  t.same([...answers.keys()].sort(), ['200', '503 close'], 'nothing but answers and the stop notice');
  t.equal(connectedAfterNotice, 0, 'after the first stop notice no connection is made: no edge listens any more');
});

t.test('threads - the quota stored after the stop is exactly the 100 admitted over 2 edge threads', async (t) => {
  const dbs = openDatabases(data);
  t.equal(new UsageStore(dbs).used('racer', monthOf(Date.now())), 100, 'stored usage after the stop: exactly the quota');
  await dbs.root.close();
});
