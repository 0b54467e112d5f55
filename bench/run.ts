// `npm run bench`: the service against its baselines, every single-thread scenario in its own
// server process pinned to one core with wrk on the other (bench/README.md).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { monthOf } from '../src/access/calendar.js';
import { openDatabases } from '../src/store/environment.js';
import { UsageStore } from '../src/seams/quotaLedger/usageStore.js';
import { benchAccount } from './benchAccount.js';
import { collectionScenarios, hangingScenario } from './collecting.js';
import { cachedDataSet, copyOf, freshDataSet, type DataSet } from './datasets.js';
import { memoryOf } from './memory.js';
import { log } from './log.js';
import { quick, timing } from './options.js';
import { cliAcceptsThreads, loadCore, serverCore, startServer } from './processes.js';
import { table, writeRecord, type Baselines, type ScenarioResult } from './report.js';
import { coldTen, serviceScenarios } from './scenarios.js';
import { runScenario, runWithBaselines } from './serverRuns.js';
import { standingRows, targetRows, targetTable, threadsNote, type Figures } from './targets.js';
import { threadsScenario } from './threads.js';
import { ensureWrk } from './wrk.js';

const costAccountEntry = fileURLToPath(new URL('./costAccount.js', import.meta.url));

const millionCount = 1_000_000;

/** The monthly count the servers persisted for the bench account in these directories (read after they stopped). */
async function persistedUsage(sets: readonly DataSet[]): Promise<number> {
  let used = 0;
  for (const { dir } of sets) {
    const dbs = openDatabases(dir);
    try {
      used += new UsageStore(dbs).used(benchAccount.name, monthOf(Date.now()));
    } finally {
      await dbs.root.close();
    }
  }
  return used;
}

/** The first scenario of each profile is measured run by run with that profile's baselines. */
async function warmScenarios(warm: DataSet): Promise<{ results: ScenarioResult[]; baselines: Baselines }> {
  const results: ScenarioResult[] = [];
  const measured: Partial<Baselines['measured']> = {};
  const pairedWith: Partial<Baselines['pairedWith']> = {};
  for (const scenario of serviceScenarios(warm.token)) {
    const server = await startServer({ data: warm.dir, threads: 1 });
    try {
      if (measured[scenario.profile]) {
        results.push(await runScenario(server, scenario));
        continue;
      }
      const paired = await runWithBaselines(server, scenario);
      results.push(paired.result);
      measured[scenario.profile] = paired.baselines;
      pairedWith[scenario.profile] = scenario.name;
    } finally {
      await server.stop();
    }
  }
  if (!measured.search10 || !measured.search1 || !pairedWith.search10 || !pairedWith.search1)
    throw new Error('a profile has no scenario measured with its baselines');
  return {
    results,
    baselines: {
      measured: { search10: measured.search10, search1: measured.search1 },
      pairedWith: { search10: pairedWith.search10, search1: pairedWith.search1 },
    },
  };
}

async function millionScenario(): Promise<{ result: ScenarioResult; startupMs: number; seededMs: number | null }> {
  const million = await cachedDataSet('million', { count: millionCount });
  log(million.seededMs === null ? '  (1M set reused from cache)' : `  (1M set seeded in ${(million.seededMs / 1000).toFixed(1)} s)`);
  const server = await startServer({ data: million.dir, threads: 1 });
  try {
    const start = memoryOf(server.pid);
    const notes = { startupMs: server.startupMs, startAnonMiB: start.anonMiB, startFileMiB: start.fileMiB };
    const result = await runScenario(server, coldTen(million.token, millionCount), notes);
    return { result, startupMs: server.startupMs, seededMs: million.seededMs };
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  // The runner itself stays off the server's core.
  execFileSync('taskset', ['-pc', String(loadCore), String(process.pid)], { stdio: 'ignore' });
  ensureWrk();
  const threadsFlag = cliAcceptsThreads();
  log(
    `datapoints bench: ${timing.runs} run(s) of ${timing.runSeconds} s after ${timing.warmupSeconds} s warm-up, server on core ${serverCore}, wrk on core ${loadCore}`,
  );
  log(
    threadsFlag
      ? 'this build accepts serve --threads: single-core scenarios run --threads 1'
      : 'this build has no serve --threads: single-core scenarios run its one thread',
  );

  const warm = await freshDataSet('warm', { count: 1_000 });
  // Copied before any server runs on `warm`: the two servers of the threads scenario need a
  // directory each (docs/storage.md#one-server-per-data-directory), with the same data and
  // no counts of the other scenarios, so that the persisted counts add up across the three.
  const threadsData = [copyOf(warm, 'threads-1'), copyOf(warm, 'threads-2')] as const;
  log('service, warm data');
  const { results: warmResults, baselines } = await warmScenarios(warm);
  log('service, --threads 2 vs --threads 1');
  const threads = await threadsScenario(threadsData);
  const usage = await persistedUsage([warm, ...threadsData]);
  for (const { dir } of [warm, ...threadsData]) rmSync(dir, { recursive: true, force: true });

  log('service, 1M resources');
  const million = await millionScenario();
  log('service, collecting (github, then x)');
  const collection = await collectionScenarios();
  log('service, every platform hanging');
  const hanging = await hangingScenario();

  const threadResults = threads ? [threads.one, threads.two] : [];
  const results = [...warmResults, ...threadResults, million.result, collection.result, hanging];
  const figures: Figures = {
    results: new Map(results.map((result) => [result.name, result])),
    baselines,
    collection,
    threads,
    millionStartupMs: million.startupMs,
  };
  const targets = targetRows(figures);
  const standing = standingRows(figures);
  const elapsedSeconds = (performance.now() - started) / 1000;
  // Every request past the token check is counted: all the warm-data ones but the 401 scenario.
  const counted = [...warmResults, ...threadResults]
    .filter((result) => result.name !== 'unauthorized-401')
    .reduce((sum, result) => sum + Number(result.notes.measuredRequests), 0);
  const file = writeRecord({
    timing,
    quick,
    threadsFlag,
    elapsedSeconds,
    baselines,
    results,
    targets,
    standing,
    million,
    collection,
    usage: { persisted: usage, measuredResponses: counted },
  });

  const out = (text: string) => process.stdout.write(`${text}\n`);
  out(`\n${table(results, baselines)}\n`);
  out(`${targetTable(targets)}\n`);
  if (threads) out(`${threadsNote}\n`);
  if (!threadsFlag) out('this build has no `serve --threads`: the `--threads 1` rows ran the one-thread server it has.\n');
  out(`earlier targets:\n${targetTable(standing)}\n`);
  out(`quota durability: ${usage} requests persisted for the bench account >= ${counted} measured responses: ${usage >= counted}`);
  if (quick) out('--quick: one run of 2 s per scenario; check that everything runs, do not quote these figures.');
  out(`finished in ${elapsedSeconds.toFixed(0)} s; record: ${file}`);
  // The cost account beside the table: where a warm search's CPU goes, floor against service.
  out('\ncost account (npm run bench:cost): CPU µs per warm 10-resource search, by item');
  execFileSync(process.execPath, [costAccountEntry, '--seconds', quick ? '2' : '5'], { stdio: ['ignore', 'inherit', 'inherit'] });
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
