// `npm run bench`: the service against its two baselines, every scenario in its own server
// process pinned to one core with wrk on the other (README.md, "Benchmarks").
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { monthOf } from '../src/access/calendar.js';
import { openDatabases } from '../src/store/environment.js';
import { UsageStore } from '../src/store/usageStore.js';
import { platformCodes } from '../src/platforms/registry.js';
import { CollectionProgress, collectionsPerSecond, type CollectionCounts } from './collectionProgress.js';
import { cachedDataSet, copyOf, freshDataSet, type DataSet } from './datasets.js';
import { measure, measureInterleaved, median, type Measurement, type Timing } from './measure.js';
import { preflight } from './preflight.js';
import { memoryOf, startPinned, loadCore, serverCore, type RunningServer } from './processes.js';
import { ratios, table, targetTable, writeRecord, type Baselines, type ScenarioResult, type Target } from './report.js';
import { coldTen, serviceScenarios, warmTen, type ScenarioShape } from './scenarios.js';
import type { BenchPlatform } from './seed.js';
import { ensureWrk } from './wrk.js';

const distRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(distRoot, 'src', 'cli.js');
const baselineEntry = (name: string) => join(distRoot, 'bench', 'baselines', `${name}.js`);

const { values: flags } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
const timing: Timing = flags.quick ? { warmupSeconds: 1, runs: 1, runSeconds: 2 } : { warmupSeconds: 2, runs: 5, runSeconds: 2 };
const millionCount = 1_000_000;
/** Enough due resources to keep the collector busy through the whole collection scenario. */
const dueCount = 200_000;
const collectOnlySeconds = flags.quick ? 2 : 3;
const collectWarmupSeconds = flags.quick ? 2 : 3;
const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const serve = (data: string, upstream = 'emulator') =>
  startPinned(serverCore, [cli, 'serve', '--host', '127.0.0.1', '--port', '0', '--data', data, '--upstream', upstream]);

async function runScenario(server: RunningServer, scenario: ScenarioShape, notes: ScenarioResult['notes'] = {}, hooks = {}): Promise<ScenarioResult> {
  log(`  ${scenario.name}`);
  const answer = await preflight(server.url, scenario.shape, scenario.expectStatus, scenario.check);
  return resultOf(server, scenario, answer.bytes, await measure(server.url, scenario.shape, timing, hooks), notes);
}

/**
 * A scenario measured run by run with both baselines answering a body of its size, all three
 * servers up on the server core (the idle ones cost nothing), so their ratios see one machine.
 */
async function runWithBaselines(server: RunningServer, scenario: ScenarioShape): Promise<{ result: ScenarioResult; uws: Measurement; fastify: Measurement }> {
  log(`  ${scenario.name}, run by run with uws-static and fastify-static`);
  const answer = await preflight(server.url, scenario.shape, scenario.expectStatus, scenario.check);
  const baselineServers: RunningServer[] = [];
  try {
    for (const entry of ['uwsStatic', 'fastifyStatic']) baselineServers.push(await startPinned(serverCore, [baselineEntry(entry), String(answer.bytes)]));
    const [measurement, uws, fastify] = await measureInterleaved([server.url, ...baselineServers.map(({ url }) => url)], scenario.shape, timing);
    return { result: resultOf(server, scenario, answer.bytes, measurement!), uws: uws!, fastify: fastify! };
  } finally {
    await Promise.all(baselineServers.map((baseline) => baseline.stop()));
  }
}

function resultOf(server: RunningServer, scenario: ScenarioShape, answerBytes: number, measurement: Measurement, notes: ScenarioResult['notes'] = {}): ScenarioResult {
  const memory = memoryOf(server.pid);
  const served = measurement.runs.reduce((sum, run) => sum + run.requests, 0);
  const wrong = measurement.runs.reduce((sum, run) => sum + (scenario.expectStatus === 200 ? run.non2xx : run.requests - run.non2xx) + run.socketErrors, 0);
  if (wrong > 0) notes = { ...notes, unexpectedAnswers: wrong };
  return {
    name: scenario.name, what: scenario.what, profile: scenario.profile, answerBytes, measurement,
    peakRssMiB: memory.peakRssMiB, anonRssMiB: memory.anonMiB, notes: { ...notes, measuredRequests: served },
  };
}

/** The monthly count the service persisted for the bench account (read after it stopped). */
async function persistedUsage(dir: string): Promise<number> {
  const dbs = openDatabases(dir);
  try {
    return new UsageStore(dbs).used('bench', monthOf(Date.now()));
  } finally {
    await dbs.root.close();
  }
}

/** The first scenario of each profile is measured run by run with that profile's baselines. */
async function warmScenarios(warm: DataSet): Promise<{ results: ScenarioResult[]; baselines: Baselines }> {
  const results: ScenarioResult[] = [];
  const baselines = { uws: {}, fastify: {}, pairedWith: {} } as Baselines;
  for (const scenario of serviceScenarios(warm.token)) {
    const server = await serve(warm.dir);
    try {
      if (baselines.uws[scenario.profile]) {
        results.push(await runScenario(server, scenario));
        continue;
      }
      const paired = await runWithBaselines(server, scenario);
      results.push(paired.result);
      baselines.uws[scenario.profile] = paired.uws;
      baselines.fastify[scenario.profile] = paired.fastify;
      baselines.pairedWith[scenario.profile] = scenario.name;
    } finally {
      await server.stop();
    }
  }
  return { results, baselines };
}

async function millionScenario(): Promise<{ result: ScenarioResult; startupMs: number; startRssMiB: number; seededMs: number | null }> {
  const million = await cachedDataSet('million', { count: millionCount });
  log(million.seededMs === null ? '  (1M set reused from cache)' : `  (1M set seeded in ${(million.seededMs / 1000).toFixed(1)} s)`);
  const server = await serve(million.dir);
  try {
    const startRssMiB = memoryOf(server.pid).rssMiB;
    const result = await runScenario(server, coldTen(million.token, millionCount), { startupMs: server.startupMs, startRssMiB });
    return { result, startupMs: server.startupMs, startRssMiB, seededMs: million.seededMs };
  } finally {
    await server.stop();
  }
}

interface CollectingServer {
  server: RunningServer;
  data: DataSet;
  emulatorUrl: string;
  /** Counts the server's completed collections from outside, in its LMDB. */
  progress: CollectionProgress;
}

/** The emulator is the upstream, not the system under test: it runs beside wrk, on the load core. */
async function withCollectingServer<T>(label: string, platform: BenchPlatform, run: (collecting: CollectingServer) => Promise<T>): Promise<T> {
  const template = await cachedDataSet(`collect-${platform}`, { platform, count: dueCount + 100, due: { from: 100, at: Date.now() } });
  const data = copyOf(template, label);
  const emulator = await startPinned(loadCore, [cli, 'emulator', '--port', '0']);
  const server = await serve(data.dir, emulator.url);
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

/** Collections per second with nothing else to do, after the pipeline's JIT warm-up. */
async function collectOnlyRate(progress: CollectionProgress): Promise<number> {
  await sleep(collectWarmupSeconds * 1000);
  const first = progress.count();
  await sleep(collectOnlySeconds * 1000);
  return collectionsPerSecond(first, progress.count());
}

async function collectionScenario(): Promise<{ result: ScenarioResult; collectOnlyPerSecond: number; duringSearchPerSecond: number; ranDry: boolean }> {
  return withCollectingServer('collect', 'github', async ({ server, data, progress }) => {
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
    const scenario = { ...warmTen(data.token), name: 'search-10-warm+collecting', what: 'search-10-warm while the collector refreshes due resources from an emulator on the other core' };
    const result = await runScenario(server, scenario, {}, hooks);
    const duringSearchPerSecond = median(during);
    result.notes = { ...result.notes, collectOnlyPerSecond, collectPerSecondDuringSearch: duringSearchPerSecond, ranDry };
    return { result, collectOnlyPerSecond, duringSearchPerSecond, ranDry };
  });
}

/** The same pipeline on x, whose collector looks up to 100 accounts in one upstream call. */
async function batchedCollectionRate(): Promise<number> {
  return withCollectingServer('collect-batched', 'x', ({ progress }) => collectOnlyRate(progress));
}

/** Searches while every platform hangs: due refreshes time out and the breakers open (issue 5). */
async function hangingScenario(): Promise<ScenarioResult> {
  return withCollectingServer('hanging', 'github', async ({ server, data, emulatorUrl }) => {
    for (const platform of platformCodes) {
      const answer = await fetch(`${emulatorUrl}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ platform, identifier: '*', mode: 'timeout' }) });
      if (answer.status !== 204) throw new Error(`the emulator refused the ${platform} fault: ${answer.status}`);
    }
    const scenario = { ...warmTen(data.token), name: 'search-10-warm+hanging', what: 'search-10-warm while every platform hangs and 200k due refreshes wait on them' };
    return runScenario(server, scenario);
  });
}

/** Issue 5 asks for the ratio; 0.9 is our own bar for "does not slow searches". */
function hangingTarget(results: Map<string, ScenarioResult>): Target {
  const rate = (name: string) => results.get(name)!.measurement.requestsPerSecond;
  const ratio = rate('search-10-warm+hanging') / rate('search-10-warm');
  return { target: 'every platform hanging: warm search >= 0.9 x healthy', measured: `${ratio.toFixed(2)} x`, met: ratio >= 0.9 };
}

function targets(
  results: Map<string, ScenarioResult>,
  base: Baselines,
  million: { startupMs: number; startRssMiB: number },
  collection: { collectOnlyPerSecond: number; batchedPerSecond: number },
): Target[] {
  const searchTargets = (name: string, label: string): Target[] => {
    const result = results.get(name)!;
    const { vsUws, vsFastify } = ratios(result, base);
    return [
      { target: `${label}: >= 0.5 x uws-static`, measured: `${vsUws.toFixed(2)} x`, met: vsUws >= 0.5 },
      { target: `${label}: >= 2 x fastify-static`, measured: `${vsFastify.toFixed(2)} x`, met: vsFastify >= 2 },
      { target: `${label}: p99 <= 5 ms at 64 connections`, measured: `${result.measurement.p99Ms.toFixed(2)} ms`, met: result.measurement.p99Ms <= 5 },
    ];
  };
  const cold = results.get('search-10-cold-1M')!;
  return [
    ...searchTargets('search-10-warm', 'warm 10-resource search'),
    { target: '1M resources: start-up to listening <= 2 s', measured: `${(million.startupMs / 1000).toFixed(2)} s`, met: million.startupMs <= 2000 },
    { target: '1M resources: RSS <= 512 MiB (after start)', measured: `${million.startRssMiB.toFixed(0)} MiB`, met: million.startRssMiB <= 512 },
    { target: '1M resources: peak RSS <= 512 MiB (after cold load)', measured: `${cold.peakRssMiB.toFixed(0)} MiB (anon ${cold.anonRssMiB.toFixed(0)})`, met: cold.peakRssMiB <= 512 },
    { target: '1M resources: cold 10-resource search >= 0.3 x uws-static', measured: `${ratios(cold, base).vsUws.toFixed(2)} x`, met: ratios(cold, base).vsUws >= 0.3 },
    { target: 'collection on one core >= 5,000/s (github: 1 resource per upstream call)', measured: `${collection.collectOnlyPerSecond.toFixed(0)} /s`, met: collection.collectOnlyPerSecond >= 5000 },
    { target: 'collection on one core >= 5,000/s (x: up to 100 per upstream call)', measured: `${collection.batchedPerSecond.toFixed(0)} /s`, met: collection.batchedPerSecond >= 5000 },
    ...searchTargets('search-10-warm+collecting', 'warm search while collecting'),
    hangingTarget(results),
  ];
}

async function main(): Promise<void> {
  const started = performance.now();
  // The runner itself stays off the server's core.
  execFileSync('taskset', ['-pc', String(loadCore), String(process.pid)], { stdio: 'ignore' });
  ensureWrk();
  log(`datapoints bench: ${timing.runs} run(s) of ${timing.runSeconds} s after ${timing.warmupSeconds} s warm-up, server on core ${serverCore}, wrk on core ${loadCore}`);

  const warm = await freshDataSet('warm', { count: 1_000 });
  log('service, warm data');
  const { results: warmResults, baselines: base } = await warmScenarios(warm);
  const byName = new Map(warmResults.map((result) => [result.name, result]));
  const usage = await persistedUsage(warm.dir);
  rmSync(warm.dir, { recursive: true, force: true });

  log('service, 1M resources');
  const million = await millionScenario();
  log('service, collecting');
  const collecting = await collectionScenario();
  log('service, collecting from a batching platform (x)');
  const collection = { ...collecting, batchedPerSecond: await batchedCollectionRate() };
  log('service, every platform hanging');
  const hanging = await hangingScenario();

  const results = [...warmResults, million.result, collection.result, hanging];
  for (const result of results) byName.set(result.name, result);
  const checked = targets(byName, base, million, collection);
  const elapsedSeconds = (performance.now() - started) / 1000;
  // Every request past the token check is counted (decisions 15): all but the 401 scenario.
  const counted = warmResults.filter((result) => result.name !== 'unauthorized-401').reduce((sum, result) => sum + Number(result.notes.measuredRequests), 0);
  const file = writeRecord({ timing, elapsedSeconds, baselines: base, results, targets: checked, million, collection, usage: { persisted: usage, measuredResponses: counted } });

  process.stdout.write(`\n${table(results, base)}\n\n${targetTable(checked)}\n\n`);
  process.stdout.write(`quota durability: ${usage} requests persisted for the bench account >= ${counted} measured responses: ${usage >= counted}\n`);
  process.stdout.write(`finished in ${elapsedSeconds.toFixed(0)} s; record: ${file}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
