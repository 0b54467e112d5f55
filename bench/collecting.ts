// The scenarios on a server with due work: collection alone, searches while it collects, searches while
// every platform hangs; the emulator is the upstream, so it runs beside wrk on the load core (bench/README.md#scenarios).
import { rmSync } from 'node:fs';
import { platformCodes } from '../src/platforms/registry.js';
import { CollectionProgress, collectionsPerSecond, type CollectionCounts } from './collectionProgress.js';
import { cachedDataSet, copyOf, type DataSet } from './datasets.js';
import { median } from './measure.js';
import { sleep } from './log.js';
import { collectSeconds } from './options.js';
import { cliEntry, loadCore, startPinned, startServer, type RunningServer } from './processes.js';
import type { ScenarioResult } from './report.js';
import { warmTen } from './scenarios.js';
import type { BenchPlatform } from './seed.js';
import { runScenario } from './serverRuns.js';

/** Enough due resources to keep the collector busy through the whole collection scenario. */
export const dueCount = 200_000;

interface CollectingServer {
  server: RunningServer;
  data: DataSet;
  emulatorUrl: string;
  /** Counts the server's completed collections from outside, in its LMDB. */
  progress: CollectionProgress;
}

async function withCollectingServer<T>(
  label: string,
  platform: BenchPlatform,
  run: (collecting: CollectingServer) => Promise<T>,
): Promise<T> {
  const template = await cachedDataSet(`collect-${platform}`, { platform, count: dueCount + 100, due: { from: 100, at: Date.now() } });
  const data = copyOf(template, label);
  const emulator = await startPinned([loadCore], [cliEntry, 'emulator', '--port', '0']);
  const server = await startServer({ data: data.dir, upstream: emulator.url, threads: 1 });
  const progress = new CollectionProgress(data.dir);
  try {
    return await run({ server, data, emulatorUrl: emulator.url, progress });
  } finally {
    await progress.close();
    await server.stop();
    await emulator.stop();
    rmSync(data.dir, { recursive: true, force: true });
  }
}

/** Collections per second with nothing else to do, counted after the pipeline's JIT warm-up. */
export async function collectOnlyRate(
  progress: CollectionProgress,
  warmupSeconds = collectSeconds,
  countSeconds = collectSeconds,
): Promise<number> {
  await sleep(warmupSeconds * 1000);
  const first = progress.count();
  await sleep(countSeconds * 1000);
  return collectionsPerSecond(first, progress.count());
}

export interface CollectionFigures {
  /** search-10-warm while the server collects 200k due github resources. */
  result: ScenarioResult;
  githubPerSecond: number;
  xPerSecond: number;
}

export async function collectionScenarios(): Promise<CollectionFigures> {
  const github = await withCollectingServer('collect', 'github', async ({ server, data, progress }) => {
    const collectOnlyPerSecond = await collectOnlyRate(progress);
    const during: number[] = [];
    let ranDry = false;
    const hooks = {
      before: () => progress.count(),
      after: (start: CollectionCounts) => {
        const end = progress.count();
        during.push(collectionsPerSecond(start, end));
        if (end.waiting === 0) ranDry = true;
      },
    };
    const scenario = {
      ...warmTen(data.token),
      name: 'search-10-warm+collecting',
      what: `search-10-warm while the resource thread collects ${dueCount} due resources from an emulator on the other core`,
    };
    const result = await runScenario(server, scenario, {}, hooks);
    result.notes = { ...result.notes, collectOnlyPerSecond, collectPerSecondDuringSearch: median(during), ranDry };
    return { result, collectOnlyPerSecond };
  });
  const xPerSecond = await withCollectingServer('collect-batched', 'x', ({ progress }) => collectOnlyRate(progress));
  return { result: github.result, githubPerSecond: github.collectOnlyPerSecond, xPerSecond };
}

/** Searches while every platform hangs: due refreshes time out and the breakers open. */
export async function hangingScenario(): Promise<ScenarioResult> {
  return withCollectingServer('hanging', 'github', async ({ server, data, emulatorUrl }) => {
    for (const platform of platformCodes) {
      const answer = await fetch(`${emulatorUrl}/_emulator/faults`, {
        method: 'POST',
        body: JSON.stringify({ platform, identifier: '*', mode: 'timeout' }),
      });
      if (answer.status !== 204) throw new Error(`the emulator refused the ${platform} fault: ${answer.status}`);
    }
    const scenario = {
      ...warmTen(data.token),
      name: 'search-10-warm+hanging',
      what: `search-10-warm while every platform hangs and ${dueCount} due refreshes wait on them`,
    };
    return runScenario(server, scenario);
  });
}
