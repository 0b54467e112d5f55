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
});
const seconds = positiveNumber('seconds', flags.seconds);
const runs = positiveNumber('runs', flags.runs);
const commitCount = positiveNumber('commits', flags.commits);
const diskResources = positiveNumber('disk-resources', flags['disk-resources']);
const dueResources = positiveNumber('due-resources', flags['due-resources']);
const dayMs = 86_400_000;
const days = 90;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

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

async function readRatio(): Promise<{ search: number[]; history: number[]; historyBytes: number }> {
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
      const result = { search: [] as number[], history: [] as number[], historyBytes: answer.bytes };
      for (let run = 0; run < runs; run++) {
        for (const [label, shape] of [
          ['search', search],
          ['history', history],
        ] as const) {
          const measured = await runWrk(server.url, shape, seconds, `${label}${run}`);
          if (measured.non2xx + measured.socketErrors > 0) throw new Error(`${label}: ${measured.non2xx} non-2xx answers`);
          result[label].push(measured.requestsPerSecond);
          log(`${label} run ${run + 1}: ${measured.requestsPerSecond.toFixed(0)} req/s, p99 ${measured.p99Ms} ms`);
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

/** A store of `commitCount` available resources and a function committing one more collection of each. */
async function commitRound(recording: boolean) {
  const dir = scratchDir(recording ? 'history-on' : 'history-off');
  const dbs = openDatabases(dir);
  const store = new ResourceStore(dbs, recording ? historyDefaults : { ...historyDefaults, days: 0 });
  const now = Date.now();
  const resources = [...seededChanges({ count: commitCount }, now)].map(({ key, change }) => ({
    key,
    version: undefined as number | undefined,
    resource: change.resource as StoredResource,
  }));
  let at = now;
  const collectAll = async () => {
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
  await collectAll(); // creates them
  return {
    collectAll,
    async close() {
      await dbs.root.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function commitRatio() {
  const on = await commitRound(true);
  const off = await commitRound(false);
  const result = { on: { wall: [] as number[], cpu: [] as number[] }, off: { wall: [] as number[], cpu: [] as number[] } };
  try {
    await on.collectAll();
    await off.collectAll();
    for (let run = 0; run < runs * 2; run++) {
      for (const [label, round] of [
        ['on', on],
        ['off', off],
      ] as const) {
        const measured = await round.collectAll();
        result[label].wall.push(measured.wallUs);
        result[label].cpu.push(measured.cpuUs);
        log(
          `commit, history ${label}, round ${run + 1}: ${measured.wallUs.toFixed(1)} µs wall, ${measured.cpuUs.toFixed(1)} µs CPU a commit`,
        );
      }
    }
    return result;
  } finally {
    await on.close();
    await off.close();
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

ensureWrk();
const loadBefore = loadavg()[0]!;
const read = await readRatio();
const commit = await commitRatio();
const disk = await diskPerMillionResourceDays();
const collection = await collectionRates();
const fmt = (value: number) => value.toFixed(2);
const searchRate = median(read.search);
const historyRate = median(read.history);
console.log(`load average ${fmt(loadBefore)} before, ${fmt(loadavg()[0]!)} after`);
console.log(
  `read:   history 10 x ${days} days ${historyRate.toFixed(0)} req/s (${read.historyBytes} B), warm search ${searchRate.toFixed(0)} req/s: ${fmt(historyRate / searchRate)} x (target >= 0.5 x)`,
);
const wallOn = median(commit.on.wall);
const wallOff = median(commit.off.wall);
const cpuOn = median(commit.on.cpu);
const cpuOff = median(commit.off.cpu);
console.log(
  `commit: recording on ${fmt(wallOn)} µs wall / ${fmt(cpuOn)} µs CPU, off ${fmt(wallOff)} / ${fmt(cpuOff)}: wall ${fmt((wallOn / wallOff - 1) * 100)} %, CPU ${fmt((cpuOn / cpuOff - 1) * 100)} % (target <= +10 %)`,
);
console.log(
  `disk:   ${(disk.bytes / 1e6).toFixed(1)} MB per million resource-days (${disk.resourceDays} resource-days of 3 counts moving daily; ${(disk.bytes / 1e6).toFixed(1)} bytes a resource a day)`,
);
const collectOn = median(collection.on);
const collectOff = median(collection.off);
console.log(
  `collect: recording on ${collectOn.toFixed(0)} a second, off ${collectOff.toFixed(0)}: ${fmt((collectOn / collectOff - 1) * 100)} % (target: unchanged within noise)`,
);
