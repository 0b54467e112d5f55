// Search on a cluster node against the same node alone, run by run (bench/README.md#cluster): a search
// never waits on NATS (docs/cluster.md#nats-outage), so only its quota blocks, reserved in the cluster, differ.
import { rmSync } from 'node:fs';
import { startNats } from './clusterNats.js';
import { seedCluster } from './clusterSeed.js';
import { freshDataSet, scratchDir } from './datasets.js';
import { pairedRatio } from './measure.js';
import { log } from './log.js';
import { startServer, type RunningServer } from './processes.js';
import type { ScenarioResult } from './report.js';
import { warmTen } from './scenarios.js';
import type { SeedPlan } from './seed.js';
import { runSideBySide } from './serverRuns.js';

export interface ClusterSearchFigures {
  embedded: ScenarioResult;
  cluster: ScenarioResult;
  /** Requests/s of the cluster node over the embedded one, the median of the per-run ratios. */
  ratio: number;
}

const plan: SeedPlan = { count: 1_000 };

export async function clusterSearch(): Promise<ClusterSearchFigures> {
  log('search: embedded vs a cluster node, run by run');
  const embeddedData = await freshDataSet('cluster-embedded', plan);
  const nats = await startNats('search');
  const nodeDir = scratchDir('cluster-search-node');
  const servers: RunningServer[] = [];
  try {
    const clusterToken = await seedCluster(nats.url, plan);
    servers.push(await startServer({ data: embeddedData.dir, threads: 1 }));
    servers.push(await startServer({ data: nodeDir, threads: 1, flags: ['--nats', nats.url, '--role', 'both'] }));
    const [embedded, cluster] = await runSideBySide(
      [
        { server: servers[0]!, token: embeddedData.token, name: 'search-10-warm embedded', what: 'search-10-warm, a node alone' },
        {
          server: servers[1]!,
          token: clusterToken,
          name: 'search-10-warm cluster node',
          what: 'search-10-warm, a node of a cluster (--nats, role both) on its replica',
        },
      ],
      warmTen,
    );
    return { embedded: embedded!, cluster: cluster!, ratio: pairedRatio(cluster!.measurement, embedded!.measurement) };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await nats.stop();
    for (const dir of [embeddedData.dir, nodeDir]) rmSync(dir, { recursive: true, force: true });
  }
}
