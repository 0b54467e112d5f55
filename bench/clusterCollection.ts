// Collection with one and two collecting nodes of a cluster, and a node alone for reference, each
// figure on a fresh cluster with the same seeded work (bench/README.md#cluster).
import { rmSync } from 'node:fs';
import { CollectionProgress } from './collectionProgress.js';
import { collectOnlyRate } from './collecting.js';
import { startNats } from './clusterNats.js';
import { seedCluster } from './clusterSeed.js';
import { freshDataSet, scratchDir } from './datasets.js';
import { log, sleep } from './log.js';
import { quick } from './options.js';
import { cliEntry, loadCore, serverCore, startPinned, startServer, type RunningServer } from './processes.js';
import type { SeedPlan } from './seed.js';

/** Enough due resources to keep the nodes busy through the warm-up and the count. */
export const clusterDueCount = quick ? 6_000 : 20_000;
/**
 * Counting starts once a tenth of the work is collected: a cluster node takes seconds to reach
 * its pace (its first due scan leases thousands of resources, an append to the log each, before
 * their outcomes come back), longer on a busy machine. At most this long.
 */
const warmupLimitSeconds = 30;
const countSeconds = quick ? 2 : 5;

export interface CollectionRate {
  perSecond: number;
  /** Nothing was left due at the end of the count: the rate is a lower bound. */
  ranDry: boolean;
  /** From the first node up to the start of the count. */
  warmupSeconds: number;
}

/** Where the collecting nodes run: one node; two sharing the server core; two on a core each. */
export const placements = {
  oneNode: [serverCore],
  twoNodesOneCore: [serverCore, serverCore],
  twoNodesTwoCores: [serverCore, loadCore],
} as const;

export type ClusterCollectionFigures = { embedded: CollectionRate } & Record<keyof typeof placements, CollectionRate>;

const duePlan = (): SeedPlan => ({ count: clusterDueCount, due: { from: 0, at: Date.now() } });

/** Collections/s counted in `countedIn`, from when every server is up and a tenth of the work is done. */
async function rateOf(countedIn: string, upSince: number): Promise<CollectionRate> {
  const progress = new CollectionProgress(countedIn);
  try {
    const deadline = upSince + warmupLimitSeconds * 1000;
    while (progress.count().collected < clusterDueCount / 10 && Date.now() < deadline) await sleep(100);
    const warmupSeconds = (Date.now() - upSince) / 1000;
    const perSecond = await collectOnlyRate(progress, 0, countSeconds);
    return { perSecond, ranDry: progress.count().waiting === 0, warmupSeconds };
  } finally {
    await progress.close();
  }
}

async function embeddedRate(emulatorUrl: string): Promise<CollectionRate> {
  log('  a node alone (reference)');
  const data = await freshDataSet('cluster-collect-embedded', duePlan());
  const upSince = Date.now();
  const server = await startServer({ data: data.dir, upstream: emulatorUrl, threads: 1 });
  try {
    return await rateOf(data.dir, upSince);
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
    const upSince = Date.now();
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
    return await rateOf(dirs[0]!, upSince);
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
