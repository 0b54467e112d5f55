// Collection with one and two collecting nodes of a cluster, and the same node alone for
// reference (bench/README.md, "Cluster"): due github accounts (one per upstream call) collected
// from an emulator, each count taken from outside in one node's LMDB, which replicates what every
// node commits. Each figure runs on a cluster of its own (a fresh nats-server, the same seeded
// work), so the second does not start where the first stopped.
import { rmSync } from 'node:fs';
import { CollectionProgress } from './collectionProgress.js';
import { collectOnlyRate } from './collecting.js';
import { seedCluster, startNats } from './clusterSetup.js';
import { freshDataSet, scratchDir } from './datasets.js';
import { log, quick } from './options.js';
import { cliEntry, loadCore, serverCore, startPinned, startServer, type RunningServer } from './processes.js';
import type { SeedPlan } from './seed.js';

/** Enough due resources to keep the nodes busy through the warm-up and the count. */
export const clusterDueCount = quick ? 6_000 : 20_000;
/**
 * A cluster node takes a few seconds to reach its pace (its first due scan leases thousands of
 * resources, each an append to the log, before their outcomes come back): counted after that.
 */
const warmupSeconds = quick ? 2 : 5;
const countSeconds = quick ? 2 : 5;

export interface CollectionRate {
  perSecond: number;
  /** Nothing was left due at the end of the count: the rate is a lower bound. */
  ranDry: boolean;
}

/** Where the collecting nodes run: one node; two sharing the server core; two on a core each. */
export const placements = {
  oneNode: [serverCore],
  twoNodesOneCore: [serverCore, serverCore],
  twoNodesTwoCores: [serverCore, loadCore],
} as const;

export type ClusterCollectionFigures = { embedded: CollectionRate } & Record<keyof typeof placements, CollectionRate>;

const duePlan = (): SeedPlan => ({ count: clusterDueCount, due: { from: 0, at: Date.now() } });

/** Collections/s counted in `countedIn` once every server is up. */
async function rateOf(countedIn: string): Promise<CollectionRate> {
  const progress = new CollectionProgress(countedIn);
  try {
    const perSecond = await collectOnlyRate(progress, warmupSeconds, countSeconds);
    return { perSecond, ranDry: progress.count().waiting === 0 };
  } finally {
    await progress.close();
  }
}

async function embeddedRate(emulatorUrl: string): Promise<CollectionRate> {
  log('  a node alone (reference)');
  const data = await freshDataSet('cluster-collect-embedded', duePlan());
  const server = await startServer({ data: data.dir, upstream: emulatorUrl, threads: 1 });
  try {
    return await rateOf(data.dir);
  } finally {
    await server.stop();
    rmSync(data.dir, { recursive: true, force: true });
  }
}

/** One collect node per entry of `cores`, each pinned to that core. */
async function clusterRate(cores: readonly number[], emulatorUrl: string): Promise<CollectionRate> {
  log(`  ${cores.length} collecting node(s) on core(s) ${cores.join(', ')}`);
  const nats = await startNats(`collect-${cores.length}`);
  const dirs = cores.map((_, index) => scratchDir(`cluster-collect-node${index + 1}`));
  const servers: RunningServer[] = [];
  try {
    await seedCluster(nats.url, duePlan());
    for (const [index, dir] of dirs.entries()) {
      servers.push(
        await startServer({
          data: dir,
          upstream: emulatorUrl,
          threads: 1,
          core: cores[index]!,
          flags: ['--nats', nats.url, '--role', 'collect'],
        }),
      );
    }
    return await rateOf(dirs[0]!);
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await nats.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

export async function clusterCollection(): Promise<ClusterCollectionFigures> {
  log(`collection: ${clusterDueCount} due github accounts`);
  const emulator = await startPinned([loadCore], [cliEntry, 'emulator', '--port', '0']);
  try {
    const embedded = await embeddedRate(emulator.url);
    return {
      embedded,
      oneNode: await clusterRate(placements.oneNode, emulator.url),
      twoNodesOneCore: await clusterRate(placements.twoNodesOneCore, emulator.url),
      twoNodesTwoCores: await clusterRate(placements.twoNodesTwoCores, emulator.url),
    };
  } finally {
    await emulator.stop();
  }
}
