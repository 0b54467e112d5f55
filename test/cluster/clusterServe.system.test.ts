// Three `datapoints serve --nats` processes and one nats-server (docs/cluster.md#accounts-and-tokens, "Quota across nodes", "Resource replication"): accounts and tokens changed with the
// CLI on the cluster are in force on every node within 1 s, the quota holds exactly across the
// nodes, and a resource collected by one node is answered, and pushed, by every node.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { clusterDefaults } from '../../src/config.js';
import { type CliResult, cli, cliInProcess, lastLine, startServer, type ServerProcess } from '../helpers/cli.js';
import { eventually } from '../helpers/eventually.js';
import { startNatsServer } from '../helpers/natsServer.js';
import { serveThreeNodes } from '../helpers/serveNodes.js';
import { StreamClient, updateOf } from '../push/streamClient.js';

const searchPath = '/api/v1/resources/search';
/** Admitted and counted, answered 422 without any upstream work (docs/api.md#a-46). */
const countedBody = '{"resources":[]}';

function search(node: ServerProcess, secret: string): Promise<number> {
  return fetch(node.url + searchPath, { method: 'POST', headers: { authorization: `Bearer ${secret}` }, body: countedBody }).then(
    async (response) => {
      await response.arrayBuffer();
      return response.status;
    },
  );
}

/** Milliseconds from `since` until `node` answers `status`, polling every 10 ms; fails after 5 s. */
async function untilStatus(node: ServerProcess, secret: string, status: number, since: number): Promise<number> {
  await eventually(
    () => search(node, secret),
    (answered) => answered === status,
    { intervalMs: 10, orFail: `${node.url} answering ${status}` },
  );
  return performance.now() - since;
}

/** A command on the cluster, in process: this process keeps serving its connections to the nodes meanwhile. */
function cluster(nats: string, args: string[]): Promise<CliResult> {
  return cliInProcess([...args, '--nats', nats]);
}

t.test('three nodes on one nats-server', async (t) => {
  // Nodes restarted by a subtest live as long as this test, not the subtest.
  const whole = t;
  const nats = await startNatsServer(t);
  const { dirs, nodes } = await serveThreeNodes(t, nats.url);

  const created = await cluster(nats.url, ['accounts', 'create', 'acme', '--rate', '100000/1m']);
  t.equal(created.status, 0, created.stderr);
  const issued = await cluster(nats.url, ['tokens', 'create', 'acme']);
  t.equal(issued.status, 0, issued.stderr);
  const secret = lastLine(issued.stdout);
  const id = /created token (\S+)/.exec(issued.stdout)![1]!;

  await t.test('a token created on the cluster is accepted by every node', async (t) => {
    const since = performance.now();
    for (const node of nodes) t.ok((await untilStatus(node, secret, 422, since)) < 1_000, `${node.url} accepts it`);
  });

  await t.test('a resource searched on one node is collected once and answered available by every node', async (t) => {
    const body = JSON.stringify({ resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] });
    const entryOn = async (node: ServerProcess) => {
      const response = await fetch(node.url + searchPath, { method: 'POST', headers: { authorization: `Bearer ${secret}` }, body });
      const answer = await response.json();
      return answer.data[0];
    };
    t.equal((await entryOn(nodes[0]!)).status, 'pending', 'new to the cluster');
    const seen = [];
    for (const node of nodes) {
      seen.push(
        await eventually(
          () => entryOn(node),
          (entry) => entry.status === 'available',
          { timeoutMs: 10_000, orFail: node.url },
        ),
      );
    }
    t.equal(new Set(seen.map((entry) => JSON.stringify(entry))).size, 1, 'every node answers the same entry, from its own replica');
  });

  await t.test('a client following a resource on one node is pushed the change another node collected', async (t) => {
    const reference = { platform: 'github', type: 'account', identifier: 'mojombo' };
    // Node 1 runs two edge threads: the change reaches it through its log replica, then its edges.
    const follower = await StreamClient.open(t, nodes[1]!.url, secret);
    follower.send({ type: 'subscribe', resources: [reference] });
    t.equal((await follower.next()).data[0].status, 'pending');
    const asked = await fetch(nodes[0]!.url + searchPath, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}` },
      body: JSON.stringify({ resources: [reference] }),
    });
    await asked.arrayBuffer();
    const update = await follower.next(updateOf(reference, 'available'));
    t.equal(update.data[0].identifier, 'mojombo', 'pushed without a poll');
  });

  await t.test(
    'a node killed -9 under search load: the others keep answering, and it comes back with what was collected meanwhile',
    async (t) => {
      // An account of its own: the load must not spend the quota the tests below count on.
      t.equal((await cluster(nats.url, ['accounts', 'create', 'loadco', '--plan', 'paid'])).status, 0);
      const loadSecret = lastLine((await cluster(nats.url, ['tokens', 'create', 'loadco'])).stdout);
      const searchOn = (node: ServerProcess, identifier: string) =>
        fetch(node.url + searchPath, {
          method: 'POST',
          headers: { authorization: `Bearer ${loadSecret}` },
          body: JSON.stringify({ resources: [{ platform: 'github', type: 'account', identifier }] }),
        }).then(async (response) => ({
          status: response.status,
          entry: response.status === 200 ? (await response.json()).data[0] : await response.arrayBuffer(),
        }));
      // The load searches what the cluster already holds; a collection the killed node had leased
      // would wait out its lease (60 s) before another node took it (docs/design/cluster.md#leases).
      const statuses = new Set<number>();
      let loading = true;
      const load = (async () => {
        while (loading) {
          for (const answer of await Promise.all([searchOn(nodes[0]!, 'octocat'), searchOn(nodes[1]!, 'octocat')]))
            statuses.add(answer.status);
        }
      })();
      await nodes[2]!.stop('SIGKILL');
      // A pull the killed node left open lasts up to pullExpiresMs (250 ms): work queued meanwhile
      // is delivered to it and waits out the lease too (docs/design/cluster.md#leases).
      // Timed: the consumer counts that pull with the live nodes' in num_waiting, so its end is not seen.
      await new Promise((resolve) => setTimeout(resolve, 2 * clusterDefaults.pullExpiresMs));
      await eventually(
        () => searchOn(nodes[0]!, 'defunkt'),
        (answer) => answer.entry.status === 'available',
        { timeoutMs: 10_000, orFail: 'collected while a node was down' },
      );
      loading = false;
      await load;
      t.same([...statuses], [200], 'every search on the other nodes was answered 200 meanwhile');
      nodes[2] = await startServer(whole, ['--nats', nats.url, '--data', dirs[2]!, '--upstream', 'emulator', '--threads', '1']);
      t.equal(
        (await searchOn(nodes[2]!, 'defunkt')).entry.status,
        'available',
        'restarted on its directory, it caught up before listening',
      );
    },
  );

  await t.test('1,000 concurrent requests over three nodes never exceed the quota', async (t) => {
    const quota = 300;
    // Account changes reach a node in the order they were made: once a marker account suspended
    // after the quota change is refused by every node, the quota is in force there too.
    t.equal((await cluster(nats.url, ['accounts', 'create', 'marker'])).status, 0);
    const marker = lastLine((await cluster(nats.url, ['tokens', 'create', 'marker'])).stdout);
    const known = performance.now();
    for (const node of nodes) await untilStatus(node, marker, 422, known);
    const changed = await cluster(nats.url, ['accounts', 'update', 'acme', '--quota', String(quota)]);
    t.equal(changed.status, 0, changed.stderr);
    t.equal((await cluster(nats.url, ['accounts', 'suspend', 'marker'])).status, 0);
    const suspended = performance.now();
    for (const node of nodes) await untilStatus(node, marker, 403, suspended);
    const statuses = await Promise.all(Array.from({ length: 1_000 }, (_, index) => search(nodes[index % 3]!, secret)));
    const admitted = statuses.filter((status) => status === 422).length;
    const refused = statuses.filter((status) => status === 403).length;
    t.equal(admitted + refused, 1_000, 'every request is admitted or refused for the quota');
    // Up to 3 earlier requests counted this month (the first test's), the rest of the quota here.
    const shown = JSON.parse((await cluster(nats.url, ['accounts', 'show', 'acme'])).stdout);
    t.ok(shown.usage.used <= quota, `granted ${shown.usage.used} <= ${quota}`);
    t.ok(admitted <= quota - 3, `admitted ${admitted} <= ${quota - 3}`);
    t.ok(admitted >= quota - 3 - 3 * 256, 'the quota is spent, not lost');
  });

  await t.test('a quota change is in force on every node within 1 s', async (t) => {
    const changed = await cluster(nats.url, ['accounts', 'update', 'acme', '--quota', 'none']);
    t.equal(changed.status, 0, changed.stderr);
    const since = performance.now();
    // Every node is asked at once: one after another, a node's time would include the others'.
    const times = await Promise.all(nodes.map((node) => untilStatus(node, secret, 422, since)));
    for (const [index, ms] of times.entries()) t.ok(ms < 1_000, `${nodes[index]!.url} admits again after ${Math.round(ms)} ms`);
  });

  await t.test('a token revoked on the cluster is refused by every node within 1 s', async (t) => {
    const revoked = await cluster(nats.url, ['tokens', 'revoke', id]);
    t.equal(revoked.stdout, `revoked ${id} of account acme\n`);
    const since = performance.now();
    const times = await Promise.all(nodes.map((node) => untilStatus(node, secret, 401, since)));
    for (const ms of times) t.ok(ms < 1_000, `refused after ${Math.round(ms)} ms`);
    t.comment(`revocation in force after ${times.map((ms) => Math.round(ms)).join(', ')} ms`);
  });

  await t.test('a node that restarts catches up with changes made while it was down', async (t) => {
    await nodes[2]!.stop();
    const second = await cluster(nats.url, ['tokens', 'create', 'acme']);
    const newSecret = lastLine(second.stdout);
    const restarted = await startServer(t, ['--nats', nats.url, '--data', dirs[2]!, '--upstream', 'emulator', '--threads', '1']);
    t.equal(await search(restarted, newSecret), 422, 'the token created meanwhile is accepted');
    t.equal(await search(restarted, secret), 401, 'the revoked one is still refused');
  });

  await t.test('an account deleted on the cluster is gone from every node, and a new one of its name starts afresh', async (t) => {
    const fresh = lastLine((await cluster(nats.url, ['tokens', 'create', 'acme'])).stdout);
    const deleted = await cluster(nats.url, ['accounts', 'delete', 'acme', '--yes']);
    t.equal(deleted.stdout, 'deleted account acme and its 3 token(s)\n', deleted.stderr);
    const since = performance.now();
    for (const node of nodes.slice(0, 2)) t.ok((await untilStatus(node, fresh, 401, since)) < 1_000, `${node.url} refuses its token`);
    t.equal((await cluster(nats.url, ['accounts', 'create', 'acme'])).status, 0);
    t.equal(JSON.parse((await cluster(nats.url, ['accounts', 'show', 'acme'])).stdout).usage.used, 0);
  });

  await Promise.all(nodes.slice(0, 2).map((node) => node.stop()));
});

t.test('serve and the commands refuse a bad --nats or --role in one line', async (t) => {
  const bad = cli(['serve', '--nats', 'http://x:1']);
  t.equal(bad.status, 2);
  t.equal(bad.stderr, `datapoints: invalid --nats: takes nats://HOST:PORT[,nats://HOST:PORT...]; "http://x:1" is not one\n`);
  const role = cli(['serve', '--nats', 'nats://127.0.0.1:1', '--role', 'cook']);
  t.equal(role.status, 2);
  t.equal(role.stderr, `datapoints: invalid --role 'cook': use search, collect, both\n`);
  const alone = cli(['serve', '--role', 'search']);
  t.equal(alone.status, 2);
  t.equal(alone.stderr, 'datapoints: --role needs --nats: a node alone does both\n');
  process.env.DATAPOINTS_NATS = 'nats://127.0.0.1';
  const fromEnv = cli(['accounts', 'list']);
  delete process.env.DATAPOINTS_NATS;
  t.equal(fromEnv.status, 2);
  t.equal(
    fromEnv.stderr,
    `datapoints: invalid DATAPOINTS_NATS: takes nats://HOST:PORT[,nats://HOST:PORT...]; "nats://127.0.0.1" is not one\n`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'datapoints-node-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const noServer = cli(['serve', '--nats', 'nats://127.0.0.1:1', '--port', '0', '--data', dir]);
  t.equal(noServer.status, 1);
  t.equal(noServer.stderr, 'datapoints: cannot reach NATS at nats://127.0.0.1:1: connection refused\n');
  const unreachable = cli(['tokens', 'list', 'acme', '--nats', 'nats://127.0.0.1:1']);
  t.equal(unreachable.status, 1);
  t.match(unreachable.stderr, /^datapoints: cannot reach NATS at nats:\/\/127\.0\.0\.1:1: /);
});
