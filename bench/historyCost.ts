// `npm run bench:history`: what datapoint history (docs/history.md) costs to read, to commit, on disk and
// to collection, as ratios measured in one run (bench/README.md#history-cost).
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { transition } from 'xstate';
import { createResourceMachine, dueEventFor } from '../machines/resource.js';
import { defaultPolicy, historyDefaults } from '../src/config.js';
import { renderView } from '../src/resources/view.js';
import { DatapointSeries } from '../src/store/datapointSeries.js';
import { openDatabases } from '../src/store/environment.js';
import { storageSize } from '../src/metrics/storageSize.js';
import { ResourceStore, type StoredResource } from '../src/store/resourceStore.js';
import { CollectionProgress, collectionsPerSecond } from './collectionProgress.js';
import { threadCpu } from './cpuProfile.js';
import { cachedDataSet, copyOf, freshDataSet, scratchDir } from './datasets.js';
import { benchFlags, positiveNumber } from './flags.js';
import { log, sleep } from './log.js';
import { everyEntry, preflight } from './preflight.js';
import { cliEntry, loadCore, startPinned, startServer } from './processes.js';
import { bearer, searchBody, tenSeeded } from './requests.js';
import { seededChanges } from './seed.js';
import { ensureWrk, runWrk, type LoadShape } from './wrk.js';

const flags = benchFlags({
  seconds: { type: 'string', default: '3' },
  runs: { type: 'string', default: '3' },
  commits: { type: 'string', default: '2000' },
  'disk-resources': { type: 'string', default: '1000' },
  'due-resources': { type: 'string', default: '60000' },
  parts: { type: 'string', default: 'read,commit,disk,collection' },
});
const seconds = positiveNumber('seconds', flags.seconds);
const runs = positiveNumber('runs', flags.runs);
const commitCount = positiveNumber('commits', flags.commits);
const diskResources = positiveNumber('disk-resources', flags['disk-resources']);
const dueResources = positiveNumber('due-resources', flags['due-resources']);
const partNames = ['read', 'commit', 'disk', 'collection'] as const;
const parts = new Set(flags.parts.split(','));
for (const part of parts)
  if (!(partNames as readonly string[]).includes(part)) {
    process.stderr.write(`--parts takes ${partNames.join(', ')}, not '${part}'\n`);
    process.exit(2);
  }
const dayMs = 86_400_000;
const days = 90;
const quantile = (values: number[], at: number) => [...values].sort((a, b) => a - b)[Math.floor(values.length * at)]!;
const median = (values: number[]) => quantile(values, 0.5);

/** 90 days of one point a day for each count of the 10 warm references, written beside the seed. */
async function seedSeries(dir: string, now: number): Promise<void> {
  const dbs = openDatabases(dir);
  try {
    const warm = new Set(tenSeeded());
    const today = now - (now % dayMs);
    const series = new DatapointSeries(dbs, historyDefaults);
    await dbs.root.transaction(() => {
      for (const { key, change } of seededChanges({ count: 10 }, now)) {
        if (!warm.has(key.split('/')[2]!)) continue;
        for (const [name, point] of Object.entries(change.resource.context.metrics ?? {}))
          for (let day = 0; day < days; day++)
            series.append(key, 'metrics', name, {
              at: today - (days - 1 - day) * dayMs + 1_000,
              value: (point.value as number) - days + day,
            });
      }
    });
  } finally {
    await dbs.root.close();
  }
}

/** The server's CPU time so far, every thread's, in µs. */
const serverCpu = (pid: number) => [...threadCpu(pid).values()].reduce((sum, micros) => sum + micros, 0);

interface ReadFigures {
  /** Answers a second, per run. */
  search: number[];
  history: number[];
  /** The server's CPU µs per answer, per run: what an answer costs, whatever share of the core the load leaves it. */
  searchCpu: number[];
  historyCpu: number[];
  historyBytes: number;
}

async function readRatio(): Promise<ReadFigures> {
  const set = await freshDataSet('history', { count: 1_000 });
  try {
    const now = Date.now();
    await seedSeries(set.dir, now);
    const search: LoadShape = { path: '/api/v1/resources/search', headers: bearer(set.token), bodies: [searchBody(tenSeeded())] };
    const from = new Date(now - (days - 1) * dayMs).toISOString().slice(0, 10);
    const body = { ...JSON.parse(searchBody(tenSeeded())), from, interval: 'day' };
    const history: LoadShape = { path: '/api/v1/resources/history', headers: bearer(set.token), bodies: [JSON.stringify(body)] };
    const server = await startServer({ data: set.dir, threads: 1 });
    try {
      await preflight(server.url, search, 200, everyEntry('available'));
      const answer = await preflight(server.url, history, 200, (text) => {
        const entries = JSON.parse(text).data as Array<{ status: string; metrics?: Record<string, { series: unknown[] }> }>;
        const short = entries.find((entry) => entry.status !== 'available' || entry.metrics?.followers?.series.length !== days);
        return short ? `an entry has not ${days} daily points: ${JSON.stringify(short).slice(0, 200)}` : undefined;
      });
      await runWrk(server.url, search, 2, 'sw');
      await runWrk(server.url, history, 2, 'hw');
      const result: ReadFigures = { search: [], history: [], searchCpu: [], historyCpu: [], historyBytes: answer.bytes };
      for (let run = 0; run < runs; run++) {
        for (const [label, shape] of [
          ['search', search],
          ['history', history],
        ] as const) {
          const cpuBefore = serverCpu(server.pid);
          const measured = await runWrk(server.url, shape, seconds, `${label}${run}`);
          const cpuPerAnswer = (serverCpu(server.pid) - cpuBefore) / measured.requests;
          if (measured.non2xx + measured.socketErrors > 0) throw new Error(`${label}: ${measured.non2xx} non-2xx answers`);
          result[label].push(measured.requestsPerSecond);
          result[`${label}Cpu`].push(cpuPerAnswer);
          log(
            `${label} run ${run + 1}: ${measured.requestsPerSecond.toFixed(0)} req/s, p99 ${measured.p99Ms} ms, ${cpuPerAnswer.toFixed(1)} µs server CPU an answer`,
          );
        }
      }
      return result;
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(set.dir, { recursive: true, force: true });
  }
}

const machine = createResourceMachine(defaultPolicy);

/**
 * `commitCount` available resources in one LMDB environment, and a function committing one more
 * collection of each through a store recording history or through one that does not (`days: 0`):
 * both rounds write the same databases, so they differ in the recording alone.
 */
async function commitRounds() {
  const dir = scratchDir('history-commit');
  const dbs = openDatabases(dir);
  const stores = { on: new ResourceStore(dbs, historyDefaults), off: new ResourceStore(dbs, { ...historyDefaults, days: 0 }) };
  const now = Date.now();
  const resources = [...seededChanges({ count: commitCount }, now)].map(({ key, change }) => ({
    key,
    version: undefined as number | undefined,
    resource: change.resource as StoredResource,
  }));
  let at = now;
  const collectAll = async (recording: 'on' | 'off') => {
    const store = stores[recording];
    at += 1_000;
    const cpu = process.cpuUsage();
    const started = performance.now();
    await Promise.all(
      resources.map(async (entry, index) => {
        const [next] = transition(machine, machine.resolveState(entry.resource), {
          type: 'COLLECTED',
          at,
          datapoints: {
            metrics: {
              followers: { value: at + index, semantic: 'followers' },
              following: { value: at + index + 1, semantic: 'following' },
              posts: { value: at + index + 2, semantic: 'posts' },
            },
          },
        });
        const stored: StoredResource = { value: 'available', context: next.context };
        const view = renderView(stored.value, stored.context);
        const cause = { event: entry.version === undefined ? ('CREATED' as const) : ('COLLECTED' as const), at };
        if (
          !(await store.commit(entry.key, entry.version === undefined ? undefined : { version: entry.version, resource: entry.resource }, {
            resource: stored,
            view,
            event: dueEventFor.available,
            cause,
          }))
        )
          throw new Error(`commit of ${entry.key} lost`);
        entry.version = (entry.version ?? 0) + 1;
        entry.resource = stored;
      }),
    );
    const spent = process.cpuUsage(cpu);
    return { wallUs: ((performance.now() - started) * 1_000) / resources.length, cpuUs: (spent.user + spent.system) / resources.length };
  };
  await collectAll('on'); // creates them
  return {
    collectAll,
    async close() {
      await dbs.root.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Pairs of rounds, one committing through the recording store and one through the other, the
 * order reversed every other pair: on one environment, so that neither side has a store of its
 * own (two environments made one after the other measured up to 8 % apart in either role).
 */
async function commitRatio() {
  const rounds = await commitRounds();
  const result = { on: { wall: [] as number[], cpu: [] as number[] }, off: { wall: [] as number[], cpu: [] as number[] } };
  try {
    await rounds.collectAll('on');
    await rounds.collectAll('off');
    for (let run = 0; run < runs * 4; run++) {
      for (const label of run % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
        const measured = await rounds.collectAll(label);
        result[label].wall.push(measured.wallUs);
        result[label].cpu.push(measured.cpuUs);
        log(
          `commit, history ${label}, pair ${run + 1}: ${measured.wallUs.toFixed(1)} µs wall, ${measured.cpuUs.toFixed(1)} µs CPU a commit`,
        );
      }
    }
    return result;
  } finally {
    await rounds.close();
  }
}

/** Bytes the data file grows by per million resource-days of history, each day 3 counts moving. */
async function diskPerMillionResourceDays(): Promise<{ bytes: number; resourceDays: number }> {
  const dir = scratchDir('history-disk');
  const dbs = openDatabases(dir);
  try {
    const series = new DatapointSeries(dbs, historyDefaults);
    const keys = [...seededChanges({ count: diskResources }, Date.now())].map(({ key }) => key);
    const before = storageSize(dbs.root)!.usedBytes;
    const firstDay = Date.UTC(2026, 0, 1);
    for (let day = 0; day < days; day++) {
      const at = firstDay + day * dayMs + 3_600_000;
      await dbs.root.transaction(() => {
        keys.forEach((key, index) => {
          for (const [offset, name] of ['followers', 'following', 'posts'].entries())
            series.append(key, 'metrics', name, { at, value: 1_000 * index + 10 * day + offset });
        });
      });
    }
    const grown = storageSize(dbs.root)!.usedBytes - before;
    const resourceDays = keys.length * days;
    return { bytes: (grown / resourceDays) * 1_000_000, resourceDays };
  } finally {
    await dbs.root.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Collections a second of a server recording history and of one that does not, alternating (on, off, off, on, ...) fresh copies of one due set. */
async function collectionRates(): Promise<{ on: number[]; off: number[] }> {
  const template = await cachedDataSet('history-collect', {
    platform: 'github',
    count: dueResources + 100,
    due: { from: 100, at: Date.now() },
  });
  const emulator = await startPinned([loadCore], [cliEntry, 'emulator', '--port', '0']);
  const rates = { on: [] as number[], off: [] as number[] };
  try {
    for (let run = 0; run < runs; run++) {
      const pair = [
        ['on', []],
        ['off', ['--history-days', '0']],
      ] as const;
      // Each run of a few seconds, one server after the other: the order alternates, so that a
      // load rising or falling through the pairs favours neither.
      for (const [label, flags] of run % 2 === 0 ? pair : [...pair].reverse()) {
        const data = copyOf(template, `history-collect-${label}`);
        const server = await startServer({ data: data.dir, upstream: emulator.url, threads: 1, flags });
        const progress = new CollectionProgress(data.dir);
        try {
          // As the collection scenario's collectOnlyRate (bench/collecting.ts), whose options module
          // would parse this bench's flags as its own: counted after the pipeline's warm-up.
          await sleep(seconds * 1_000);
          const first = progress.count();
          await sleep(seconds * 1_000);
          const rate = collectionsPerSecond(first, progress.count());
          if (progress.count().waiting === 0) throw new Error(`the ${dueResources} due resources ran out: pass a larger --due-resources`);
          rates[label].push(rate);
          log(`collection, history ${label}, run ${run + 1}: ${rate.toFixed(0)} a second`);
        } finally {
          await progress.close();
          await server.stop();
          rmSync(data.dir, { recursive: true, force: true });
        }
      }
    }
    return rates;
  } finally {
    await emulator.stop();
  }
}

const fmt = (value: number) => value.toFixed(2);
const lines: string[] = [];
const loadBefore = loadavg()[0]!;
if (parts.has('read')) {
  ensureWrk();
  const read = await readRatio();
  const searchRate = median(read.search);
  const historyRate = median(read.history);
  const searchCpu = median(read.searchCpu);
  const historyCpu = median(read.historyCpu);
  lines.push(
    `read:   history 10 x ${days} days ${historyRate.toFixed(0)} req/s (${read.historyBytes} B), warm search ${searchRate.toFixed(0)} req/s: ${fmt(historyRate / searchRate)} x (target >= 0.5 x); server CPU an answer ${historyCpu.toFixed(1)} µs against ${searchCpu.toFixed(1)}: ${fmt(searchCpu / historyCpu)} x`,
  );
}
if (parts.has('commit')) {
  const commit = await commitRatio();
  const wallOn = median(commit.on.wall);
  const wallOff = median(commit.off.wall);
  const cpuOn = median(commit.on.cpu);
  const cpuOff = median(commit.off.cpu);
  // Each pair's own difference: the load of its moment moves both of its rounds alike.
  const pairs = commit.on.cpu.map((on, index) => (on / commit.off.cpu[index]! - 1) * 100);
  lines.push(
    `commit: recording on ${fmt(wallOn)} µs wall / ${fmt(cpuOn)} µs CPU, off ${fmt(wallOff)} / ${fmt(cpuOff)}: wall ${fmt((wallOn / wallOff - 1) * 100)} %, CPU ${fmt((cpuOn / cpuOff - 1) * 100)} %; CPU of ${pairs.length} pairs: median ${fmt(median(pairs))} %, quartiles ${fmt(quantile(pairs, 0.25))} .. ${fmt(quantile(pairs, 0.75))} % (target <= +10 %)`,
  );
}
if (parts.has('disk')) {
  const disk = await diskPerMillionResourceDays();
  lines.push(
    `disk:   ${(disk.bytes / 1e6).toFixed(1)} MB per million resource-days (${disk.resourceDays} resource-days of 3 counts moving daily; ${(disk.bytes / 1e6).toFixed(1)} bytes a resource a day)`,
  );
}
if (parts.has('collection')) {
  const collection = await collectionRates();
  const collectOn = median(collection.on);
  const collectOff = median(collection.off);
  lines.push(
    `collect: recording on ${collectOn.toFixed(0)} a second, off ${collectOff.toFixed(0)}: ${fmt((collectOn / collectOff - 1) * 100)} % (target: unchanged within noise)`,
  );
}
console.log(`load average ${fmt(loadBefore)} before, ${fmt(loadavg()[0]!)} after`);
for (const line of lines) console.log(line);
