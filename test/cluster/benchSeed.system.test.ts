// The cluster benchmark's set-up (bench/README.md, "Cluster"): a cluster seeded by the bench is what
// a node needs to answer the bench's searches. A node started afterwards on an empty directory
// replicates the account, the token and every resource before it listens, and answers them all
// `available`. Not timed: the figures are the benchmark's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { seedCluster } from '../../bench/clusterSeed.js';
import { bearer, searchBody, searchPath, tenSeeded } from '../../bench/requests.js';
import { openDatabases } from '../../src/store/environment.js';
import { startServer } from '../helpers/cli.js';
import { startNatsServer } from '../helpers/natsServer.js';

t.test('a node of a cluster seeded by the bench answers the seeded resources available', async (t) => {
  const nats = await startNatsServer(t);
  const token = await seedCluster(nats.url, { count: 150 });
  const dir = mkdtempSync(join(tmpdir(), 'datapoints-bench-seed-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const node = await startServer(t, ['--nats', nats.url, '--data', dir, '--upstream', 'emulator']);
  for (const offset of [0, 14]) {
    const answer = await fetch(node.url + searchPath, { method: 'POST', headers: bearer(token), body: searchBody(tenSeeded(offset)) });
    t.equal(answer.status, 200);
    const { data } = (await answer.json()) as { data: Array<{ identifier: string; status: string }> };
    t.same(
      data.map(({ identifier, status }) => [identifier, status]),
      tenSeeded(offset).map((identifier) => [identifier, 'available']),
    );
  }
  await node.stop();
  const dbs = openDatabases(dir);
  t.teardown(() => dbs.root.close());
  t.equal(dbs.resources.getCount(), 150, 'the replica holds every seeded resource');
});
