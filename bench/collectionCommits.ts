// `node dist/bench/collectionCommits.js [--resources N] [--runs N]` (after `npm run build`): what
// the resource side of one collection costs in this process, without the upstream call and the
// pipeline: a due step and its outcome through the resource host over a real store, with the due
// step's lease committed (as a cluster node commits it) and held in memory (a server alone,
// docs/architecture.md#leases-in-memory), in alternating rounds of every resource at once. It
// prints the process's CPU (lmdb's write thread included) and wall time per collection, and the
// commits per collection, of each, and their ratio.
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createResourceMachine } from '../machines/resource.js';
import { defaultPolicy, limits } from '../src/config.js';
import { found } from '../src/model.js';
import { ResourceHost } from '../src/resources/host.js';
import { CommittedLeases, type DueLeases, MemoryLeases } from '../src/resources/memoryLeases.js';
import { SearchesFirstQueue } from '../src/resources/searchesFirstQueue.js';
import { WorkRegistry } from '../src/resources/workRegistry.js';
import { openDatabases } from '../src/store/environment.js';
import { ResourceStore } from '../src/store/resourceStore.js';
import { scratchDir } from './datasets.js';
import { benchFlags, positiveNumber } from './flags.js';
import { log } from './log.js';
import { median } from './measure.js';

const flags = benchFlags({ resources: { type: 'string', default: '2000' }, runs: { type: 'string', default: '6' } });
const resourceCount = positiveNumber('resources', flags.resources);
const runs = positiveNumber('runs', flags.runs);

const machine = createResourceMachine(defaultPolicy);
// What the emulator answers for a github account: three counts, the same every time.
const outcome = found({
  metrics: {
    followers: { value: 42, semantic: 'followers' },
    following: { value: 7, semantic: 'following' },
    posts: { value: 12, semantic: 'public_repos' },
  },
});

interface Round {
  cpuUs: number;
  wallUs: number;
  commits: number;
}

/** A store of `resourceCount` available resources, and a round: every one falls due and is collected. */
async function side(label: string, leases: DueLeases) {
  const dir = scratchDir(`collection-commits-${label}`);
  const dbs = openDatabases(dir);
  const store = new ResourceStore(dbs);
  let commits = 0;
  const commit = store.commit.bind(store);
  store.commit = (...args) => {
    commits++;
    return commit(...args);
  };
  const errors: unknown[] = [];
  let now = Date.now();
  const host = new ResourceHost({
    store,
    machine,
    work: new WorkRegistry(new SearchesFirstQueue(limits.resourceWork)),
    requestCollection: () => undefined,
    now: () => now,
    random: () => 0.5,
    onError: (_key, error) => errors.push(error),
    leases,
  });
  const keys = Array.from({ length: resourceCount }, (_, index) => `github/account/bench${index}`);
  const collectAll = async (): Promise<Round> => {
    now += defaultPolicy.freshForMs + 1;
    const cpu = process.cpuUsage();
    const started = performance.now();
    const committed = commits;
    await Promise.all(keys.map((key) => host.send(key, { type: 'REFRESH_DUE', at: now })));
    await Promise.all(keys.map((key) => host.deliver(key, outcome)));
    const spent = process.cpuUsage(cpu);
    if (errors.length > 0) throw errors[0];
    return {
      cpuUs: (spent.user + spent.system) / keys.length,
      wallUs: ((performance.now() - started) * 1_000) / keys.length,
      commits: (commits - committed) / keys.length,
    };
  };
  host.wanted(keys, now);
  await host.settled();
  await Promise.all(keys.map((key) => host.deliver(key, outcome)));
  await collectAll(); // warm-up
  return {
    label,
    collectAll,
    async close() {
      await dbs.root.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const sides = [await side('lease committed', new CommittedLeases()), await side('lease in memory', new MemoryLeases())];
const rounds = new Map<string, Round[]>(sides.map((s) => [s.label, []]));
try {
  for (let run = 0; run < runs; run++) {
    // Alternating order: a load that rises or falls through the runs favours neither.
    for (const s of run % 2 === 0 ? sides : [...sides].reverse()) {
      const round = await s.collectAll();
      rounds.get(s.label)!.push(round);
      log(
        `${s.label}, round ${run + 1}: ${round.cpuUs.toFixed(1)} µs CPU, ${round.wallUs.toFixed(1)} µs wall, ${round.commits} commits a collection`,
      );
    }
  }
} finally {
  for (const s of sides) await s.close();
}

const medianOf = (label: string, pick: (round: Round) => number) => median(rounds.get(label)!.map(pick));
const out = (line: string) => process.stdout.write(`${line}\n`);
out(`${resourceCount} resources, every one due and collected per round, ${runs} rounds each (medians)`);
for (const { label } of sides) {
  out(
    `  ${label.padEnd(16)} ${medianOf(label, (r) => r.cpuUs)
      .toFixed(1)
      .padStart(7)} µs CPU ${medianOf(label, (r) => r.wallUs)
      .toFixed(1)
      .padStart(7)} µs wall ${medianOf(label, (r) => r.commits)} commits a collection`,
  );
}
const [committed, inMemory] = sides.map((s) => s.label) as [string, string];
out(
  `  in memory / committed: CPU ${(medianOf(inMemory, (r) => r.cpuUs) / medianOf(committed, (r) => r.cpuUs)).toFixed(2)}, wall ${(
    medianOf(inMemory, (r) => r.wallUs) / medianOf(committed, (r) => r.wallUs)
  ).toFixed(2)}`,
);
