// `--threads 2` against `--threads 1`, run by run, each on its own copy of one seeded set
// (docs/storage.md#one-server-per-data-directory); bench/README.md#two-threads-on-two-cores says what it shows.
import type { DataSet } from './datasets.js';
import { pairedRatio } from './measure.js';
import { log } from './log.js';
import { cliAcceptsThreads, startServer, type RunningServer } from './processes.js';
import type { ScenarioResult } from './report.js';
import { warmTen } from './scenarios.js';
import { runSideBySide } from './serverRuns.js';

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
    const [one, two] = await runSideBySide(
      [1, 2].map((threads, index) => ({
        server: servers[index]!,
        token: data[index]!.token,
        name: `search-10-warm --threads ${threads}`,
        what: `search-10-warm, ${threads} search thread(s)`,
      })),
      warmTen,
    );
    return { one: one!, two: two!, ratio: pairedRatio(two!.measurement, one!.measurement) };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}
