// `node dist/bench/cluster.js [--quick]` (after `npm run build`): the cluster mode's search, collection
// and propagation on real nats-servers, apart from `npm run bench` (bench/README.md#cluster).
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { clusterCollection, clusterDueCount, type CollectionRate } from './clusterCollection.js';
import { clusterPropagation } from './clusterPropagation.js';
import { clusterSearch } from './clusterSearch.js';
import { log } from './log.js';
import { quick, timing } from './options.js';
import { loadCore, serverCore } from './processes.js';
import { markdownTable, writeRecord } from './report.js';
import { ensureWrk } from './wrk.js';

const searchTarget = 0.9;

const fixed = (value: number, digits = 0) => value.toFixed(digits);
const rate = ({ perSecond, ranDry, warmupSeconds }: CollectionRate) =>
  `${fixed(perSecond)} /s${ranDry ? ' (ran dry: a lower bound)' : ''}, counted from ${fixed(warmupSeconds, 1)} s`;

async function main(): Promise<void> {
  const started = performance.now();
  // Other work on a shared machine moves every figure here: the load average is printed beside them.
  const loadAtStart = loadavg()[0]!;
  // The runner stays off the server core, beside wrk, the emulator and nats-server.
  execFileSync('taskset', ['-pc', String(loadCore), String(process.pid)], { stdio: 'ignore' });
  ensureWrk();
  log(
    `datapoints cluster bench: ${timing.runs} run(s) of ${timing.runSeconds} s after ${timing.warmupSeconds} s warm-up; ` +
      `2 cores: nodes on core ${serverCore} (a second node on core ${loadCore}), nats-server, emulator, wrk and this runner on core ${loadCore}`,
  );
  const search = await clusterSearch();
  const collection = await clusterCollection();
  const propagation = await clusterPropagation();
  const elapsedSeconds = (performance.now() - started) / 1000;
  const loadAverage = { start: loadAtStart, end: loadavg()[0]! };
  const file = writeRecord({ timing, quick, elapsedSeconds, loadAverage, search, collection, propagation }, 'cluster');

  const { embedded, cluster } = search;
  const rows = [
    ['figure', 'value', 'notes'],
    [
      'search-10-warm, node alone',
      `${fixed(embedded.measurement.requestsPerSecond)} req/s`,
      `p50 ${fixed(embedded.measurement.p50Ms, 2)} ms, p99 ${fixed(embedded.measurement.p99Ms, 2)} ms`,
    ],
    [
      'search-10-warm, cluster node',
      `${fixed(cluster.measurement.requestsPerSecond)} req/s`,
      `p50 ${fixed(cluster.measurement.p50Ms, 2)} ms, p99 ${fixed(cluster.measurement.p99Ms, 2)} ms`,
    ],
    [
      'search, cluster node / node alone',
      fixed(search.ratio, 2),
      `target >= ${searchTarget}: ${search.ratio >= searchTarget ? 'met' : 'NOT met'} (median of per-run ratios)`,
    ],
    ['collection, node alone', rate(collection.embedded), `reference; ${clusterDueCount} due github accounts, 1 per upstream call`],
    ['collection, 1 collecting node', rate(collection.oneNode), `core ${serverCore}`],
    ['collection, 2 nodes on one core', rate(collection.twoNodesOneCore), `both on core ${serverCore}: the same CPU as 1 node`],
    [
      'collection, 2 nodes on two cores',
      rate(collection.twoNodesTwoCores),
      `cores ${serverCore} and ${loadCore}: the second beside nats-server and the emulator`,
    ],
    [
      'collection, 2 nodes / 1 node',
      `${fixed(collection.twoNodesOneCore.perSecond / collection.oneNode.perSecond, 2)} (one core), ${fixed(collection.twoNodesTwoCores.perSecond / collection.oneNode.perSecond, 2)} (two cores)`,
      `1 node / node alone: ${fixed(collection.oneNode.perSecond / collection.embedded.perSecond, 2)}`,
    ],
    [
      'propagation p50 / p99',
      `${propagation.p50Ms} / ${propagation.p99Ms} ms`,
      `max ${propagation.maxMs} ms; ${propagation.updates} updates, ${fixed(propagation.changesPerSecond)} changes/s over ${propagation.resources} resources`,
    ],
  ];
  const out = (text: string) => process.stdout.write(`${text}\n`);
  out(`\n${markdownTable(rows)}\n`);
  out(
    'This machine has 2 cores: two collecting nodes either share one core (what a second node costs in coordination, not what it adds) ' +
      "or the second shares nats-server's and the emulator's core; neither shows how collection scales on nodes with cores of their own.",
  );
  out(
    `load average (1 min) at the start and the end: ${fixed(loadAverage.start, 1)} and ${fixed(loadAverage.end, 1)} on 2 cores; ` +
      'anything above 2 is other work competing with the benchmark.',
  );
  if (quick) out('--quick: one run of 2 s and short counts; check that everything runs, do not quote these figures.');
  out(`finished in ${fixed(elapsedSeconds)} s; record: ${file}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`cluster bench failed: ${String(error instanceof Error ? error.stack : error)}\n`);
  process.exit(1);
});
