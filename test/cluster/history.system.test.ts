// History on a cluster (docs/history.md#what-is-recorded): each node records the points of the
// resource log as it applies them to its replica, so a node that collects nothing answers the
// series of what another node collected. Node A (`both`) collects; node B (`--role search`)
// never does. Both read one emulator, whose counts the test moves (docs/operations.md#moving-counts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startEmulator } from '../../src/emulator/server.js';
import { cliInProcess, startServer, type ServerProcess, lastLine } from '../helpers/cli.js';
import { eventually } from '../helpers/eventually.js';
import { startNatsServer } from '../helpers/natsServer.js';

const octocat = { platform: 'github', type: 'account', identifier: 'octocat' };
const deadlineMs = 20_000;

interface Point {
  at: string;
  value: number;
}

async function post(node: ServerProcess, path: string, secret: string, body: unknown) {
  const response = await fetch(node.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
    body: JSON.stringify(body),
  });
  return response.json();
}

/** Polls `probe` until `check` passes; fails the test past the deadline. */
const until = <T>(what: string, probe: () => Promise<T>, check: (value: T) => boolean): Promise<T> =>
  eventually(probe, check, { timeoutMs: deadlineMs, orFail: what });

t.test('cluster history - points collected through node A are answered by node B', async (t) => {
  const nats = await startNatsServer(t);
  // A stopped clock: the hourly drift cannot add a point while the test runs.
  const emulator = await startEmulator(0, () => Date.UTC(2026, 10, 26, 12));
  t.teardown(() => emulator.close());
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'datapoints-node-')));
  t.teardown(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  // A freshness of 1 s has node A collect octocat again a second after each collection.
  const common = ['--nats', nats.url, '--upstream', emulator.url, '--fresh-for', '1s'];
  const [a, b] = await Promise.all([
    startServer(t, [...common, '--data', dirs[0]!]),
    startServer(t, [...common, '--role', 'search', '--data', dirs[1]!]),
  ]);
  t.equal((await cliInProcess(['accounts', 'create', 'acme', '--plan', 'paid', '--nats', nats.url])).status, 0);
  const issued = await cliInProcess(['tokens', 'create', 'acme', '--nats', nats.url]);
  t.equal(issued.status, 0, issued.stderr);
  const secret = lastLine(issued.stdout);

  const searchOnA = () => post(a!, '/api/v1/resources/search', secret, { resources: [octocat] });
  const historyOnB = async () => {
    const answer = await post(b!, '/api/v1/resources/history', secret, { resources: [octocat], interval: 'collection' });
    return answer.data?.[0];
  };
  const collected = await until('node A collects octocat', searchOnA, (answer) => answer.data?.[0].status === 'available');
  const followers = collected.data[0].metrics.followers.value as number;

  const first = await until('node B answers the first point', historyOnB, (entry) => entry?.metrics?.followers.series.length >= 1);
  t.same(first.metrics.followers.series[0].value, followers, "node B's first point is the value node A collected");

  t.equal(
    (
      await fetch(`${emulator.url}/_emulator/counts`, {
        method: 'POST',
        body: JSON.stringify({ platform: 'github', identifier: 'octocat', add: { followers: 250 } }),
      })
    ).status,
    200,
  );
  const moved = await until('node B answers the moved count', historyOnB, (entry) =>
    entry.metrics.followers.series.some((point: Point) => point.value === followers + 250),
  );
  t.same(
    moved.metrics.followers.series.map((point: Point) => point.value),
    [followers, followers + 250],
    'two points: the count before and after it moved, nothing in between',
  );
  t.equal(moved.metrics.followers.change, 250);
  const onA = await post(a!, '/api/v1/resources/history', secret, { resources: [octocat], interval: 'collection' });
  t.same(onA.data[0].metrics.followers.series, moved.metrics.followers.series, 'node A recorded the same points, at the same times');
});
