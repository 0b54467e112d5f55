// `--threads 2` against `--threads 1` on the same data, run by run. A live server holds its
// data directory alone (docs/storage.md, "One server per data directory"), so each of the two
// runs on its own copy of the same seeded set. The two-thread server may use both cores, and
// wrk needs one of them: bench/README.md, "Two threads on two cores", says what this figure
// can and cannot show.
import type { DataSet } from './datasets.js';
import { sampleMemory } from './memory.js';
import { measureInterleaved, pairedRatio, type Measurement } from './measure.js';
import { log, timing } from './options.js';
import { preflight } from './preflight.js';
import { cliAcceptsThreads, startServer, type RunningServer } from './processes.js';
import type { ScenarioResult } from './report.js';
import { warmTen } from './scenarios.js';
import { resultOf } from './serverRuns.js';

export interface ThreadsFigures {
  one: ScenarioResult;
  two: ScenarioResult;
  /** Requests/s of two threads over one, the median of the per-run ratios. */
  ratio: number;
}

/**
 * `data`: two copies of one seeded set, for `--threads 1` and `--threads 2` in that order.
 * Null when the build has no `serve --threads`.
 */
export async function threadsScenario(data: readonly [DataSet, DataSet]): Promise<ThreadsFigures | null> {
  if (!cliAcceptsThreads()) {
    log('  (no serve --threads in this build: --threads 2 vs --threads 1 not measured)');
    return null;
  }
  log('  search-10-warm, --threads 1 and --threads 2 run by run');
  const servers: RunningServer[] = [];
  try {
    servers.push(await startServer({ data: data[0].dir, threads: 1 }));
    servers.push(await startServer({ data: data[1].dir, threads: 2 }));
    const scenario = warmTen(data[0].token);
    // Both must give the scenario's answer: the second thread serves the same data.
    const answers = await Promise.all(
      servers.map((server) => preflight(server.url, scenario.shape, scenario.expectStatus, scenario.check)),
    );
    const memory = servers.map((server) => sampleMemory(server.pid));
    const [one, two] = await measureInterleaved(
      servers.map((server) => server.url),
      scenario.shape,
      timing,
    );
    const [oneMemory, twoMemory] = memory.map((sampler) => sampler.stop());
    const named = (threads: number, measurement: Measurement, peaks: ScenarioResult['memory']) =>
      resultOf(
        { ...scenario, name: `search-10-warm --threads ${threads}`, what: `search-10-warm, ${threads} search thread(s)` },
        answers[0]!.bytes,
        measurement,
        peaks,
      );
    return { one: named(1, one!, oneMemory!), two: named(2, two!, twoMemory!), ratio: pairedRatio(two!, one!) };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}
