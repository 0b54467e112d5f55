// `npm run bench:collection-cost`: what one github collection costs the resource thread, in CPU µs by item, and
// searches beside a backlog (bench/README.md#cost-account, docs/architecture.md#searches-first).
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { CollectionProgress, collectionsPerSecond } from './collectionProgress.js';
import {
  busiestProfile,
  file,
  mainThreadProfile,
  monotonicMicros,
  otherJs,
  perUnit,
  profilingFlags,
  threadCpu,
  threadNames,
  type ProfileItem,
} from './cpuProfile.js';
import { cachedDataSet, copyOf, freshDataSet, scratchDir, type DataSet } from './datasets.js';
import { accountFlags } from './flags.js';
import { log, sleep } from './log.js';
import { preflight } from './preflight.js';
import { cliEntry, loadCore, serveArgv, serverCore, startPinned, startServer } from './processes.js';
import { warmTen } from './scenarios.js';
import { ensureWrk, runWrk } from './wrk.js';

const { seconds, topCount, compare } = accountFlags();
const dueCount = 200_000;

/** Deepest claim wins, as in the search's account. */
const items: ProfileItem[] = [
  { name: 'due index and scheduler', claims: (_f, u) => /\/src\/(resources\/dueScheduler|store\/dueIndex)/.test(u) },
  { name: 'transition history', claims: file('/src/store/transitionHistory.js') },
  { name: 'view posting to edges', claims: file('/src/threads/publishingStore.js') },
  { name: 'edge messages and ports', claims: (_f, u) => /\/src\/(threads|seams\/quotaLedger\/portLedger)/.test(u) },
  {
    name: 'quota and usage (LMDB ledger)',
    claims: (_f, u) => /\/src\/(access|seams\/quotaLedger|store\/(usageStore|inHandUnits|dailyUsage))/.test(u),
  },
  { name: 'view change feed and push', claims: (_f, u) => u.includes('/src/push/') },
  { name: 'resource log', claims: file('/src/cluster/resourceLog') },
  { name: 'conditional commit (store)', claims: file('/src/store/resourceStore.js') },
  { name: 'LMDB (lmdb-js, msgpackr)', claims: (_f, u) => /\/(lmdb|msgpackr|ordered-binary)\//.test(u) },
  { name: 'view rendering', claims: file('/src/resources/view.js') },
  { name: 'machine step (XState)', claims: (_f, u) => u.includes('/machines/') || u.includes('/xstate/') },
  { name: 'work registry and pace', claims: (_f, u) => /\/src\/resources\/(workRegistry|searchesFirstQueue)\.js/.test(u) },
  { name: 'resource host', claims: file('/src/resources/host.js') },
  { name: 'collection loop and queue', claims: (_f, u) => u.includes('/src/collection/') || u.includes('/rxjs/') },
  { name: 'upstream call (platform, undici)', claims: (_f, u) => u.includes('/src/platforms/') || u.includes('undici') },
  { name: 'garbage collection', claims: (f) => f === '(garbage collector)' },
  { name: 'V8 and native', claims: (f) => f === '(program)' },
];

const micros = (value: number | undefined) => (value === undefined || value < 0.05 ? '-' : value.toFixed(1)).padStart(8);

interface CollectingFigures {
  label: string;
  collectOnly: number;
  /** Collections/s and searches/s while wrk searches. */
  during: number;
  searchDuring: number;
  perItem: Map<string, number>;
  /** While searches run: the resource thread's CPU ms per second, by item. */
  duringPerSecond: Map<string, number>;
  duringThreadMs: number;
  threadMicros: number;
  processMicros: number;
  /** The process's CPU µs per collection by thread name (the resource thread is `main`). */
  byThread: Map<string, number>;
  top: Map<string, number>;
  /** The same while searches run, on the resource thread. */
  topDuring: Map<string, number>;
}

/** One server of the build whose CLI is `cli` on a fresh copy of the due set: collection alone, then searches beside it. */
async function collecting(label: string, cli: string, template: DataSet, emulatorUrl: string): Promise<CollectingFigures> {
  const data = copyOf(template, `collection-cost-${label}`);
  const profiles = scratchDir(`collection-cost-${label}-profiles`);
  const progress = new CollectionProgress(data.dir);
  try {
    log(`${label}: collecting under --cpu-prof ...`);
    const serve = serveArgv({ cli, data: data.dir, upstream: emulatorUrl, threads: 1 });
    const server = await startPinned([serverCore], [...profilingFlags(profiles), ...serve]);
    let collectOnly: number;
    let during: number;
    let searchDuring: number;
    let window: { from: number; to: number; cpu: number; process: number; collected: number; byThread: Map<string, number> };
    let searchWindow: { from: number; to: number; cpu: number };
    try {
      await sleep(3_000);
      const cpuBefore = threadCpu(server.pid);
      const first = progress.count();
      const from = monotonicMicros();
      await sleep(seconds * 1000);
      const to = monotonicMicros();
      const last = progress.count();
      const cpuAfter = threadCpu(server.pid);
      collectOnly = collectionsPerSecond(first, last);
      // The resource thread is the main thread: its task id is the process id.
      const delta = (tid: string) => cpuAfter.get(tid)! - (cpuBefore.get(tid) ?? 0);
      const processCpu = [...cpuAfter.keys()].reduce((sum, tid) => sum + delta(tid), 0);
      // Node names all its threads `node`; their order of creation tells them apart alike in
      // every server: V8's workers, the profiler, libuv's pool, then the edge thread.
      const names = threadNames(server.pid);
      const byThread = new Map<string, number>();
      const others = [...cpuAfter.keys()].filter((tid) => tid !== String(server.pid)).sort((a, b) => Number(a) - Number(b));
      byThread.set('main', delta(String(server.pid)));
      for (const [index, tid] of others.entries()) byThread.set(`${index + 1} ${names.get(tid) ?? '?'}`, delta(tid));
      const collected = last.collected - first.collected;
      for (const [name, cpu] of byThread) byThread.set(name, cpu / collected);
      window = { from, to, cpu: delta(String(server.pid)), process: processCpu, collected, byThread };

      log(`${label}: searches while collecting ...`);
      const shape = warmTen(data.token).shape;
      await preflight(server.url, shape, 200);
      await runWrk(server.url, shape, 2, `${label}w`);
      const start = progress.count();
      const searchCpuBefore = threadCpu(server.pid);
      const searchFrom = monotonicMicros();
      const run = await runWrk(server.url, shape, seconds, `${label}m`);
      const searchTo = monotonicMicros();
      const resourceThreadCpu = threadCpu(server.pid).get(String(server.pid))! - searchCpuBefore.get(String(server.pid))!;
      searchWindow = { from: searchFrom, to: searchTo, cpu: resourceThreadCpu };
      const end = progress.count();
      during = collectionsPerSecond(start, end);
      searchDuring = run.requestsPerSecond;
      if (end.waiting === 0) log('  (the backlog ran dry: collect more due resources)');
    } finally {
      await server.stop();
    }
    const account = busiestProfile(profiles, items, window.from, window.to);
    if (!account) throw new Error(`${label}: no profile samples in the collection window`);
    const searchAccount = mainThreadProfile(profiles, items, searchWindow.from, searchWindow.to);
    const searchSeconds = (searchWindow.to - searchWindow.from) / 1e6;
    return {
      label,
      collectOnly,
      during,
      searchDuring,
      perItem: perUnit(account, window.cpu, window.collected),
      // µs per second / 1000: ms of the resource thread's CPU per second of searching.
      duringPerSecond: searchAccount ? perUnit(searchAccount, searchWindow.cpu / 1000, searchSeconds) : new Map(),
      duringThreadMs: searchWindow.cpu / 1000 / searchSeconds,
      threadMicros: window.cpu / window.collected,
      processMicros: window.process / window.collected,
      byThread: window.byThread,
      top: account.unclaimed,
      topDuring: searchAccount?.unclaimed ?? new Map(),
    };
  } finally {
    await progress.close();
    for (const dir of [data.dir, profiles]) rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  ensureWrk();
  const template = await cachedDataSet('collect-github', { platform: 'github', count: dueCount + 100, due: { from: 100, at: Date.now() } });
  const warm = await freshDataSet('collection-cost-warm', { count: 1_000 });
  const emulator = await startPinned([loadCore], [cliEntry, 'emulator', '--port', '0']);
  try {
    const columns = [await collecting('service', cliEntry, template, emulator.url)];
    if (compare) columns.push(await collecting('compared', compare, template, emulator.url));

    log('searches alone ...');
    const idle = await startServer({ data: warm.dir, threads: 1 });
    let searchAlone: number;
    try {
      const shape = warmTen(warm.token).shape;
      await preflight(idle.url, shape, 200);
      await runWrk(idle.url, shape, 2, 'iw');
      searchAlone = (await runWrk(idle.url, shape, seconds, 'im')).requestsPerSecond;
    } finally {
      await idle.stop();
    }

    const out = (line: string) => process.stdout.write(`${line}\n`);
    const cells = (value: (figures: CollectingFigures) => string) => columns.map(value).join('');
    out(
      `github collection from an emulator, ${seconds} s windows, load average ${loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')}`,
    );
    out(`${'item'.padEnd(34)}${cells((f) => f.label.padStart(10))}   (resource thread CPU µs per collection)`);
    for (const name of [...items.map((item) => item.name), otherJs])
      out(`  ${name.padEnd(32)}${cells((f) => micros(f.perItem.get(name)))}`);
    out(`${'resource thread, total'.padEnd(34)}${cells((f) => micros(f.threadMicros))}`);
    out(`${'whole process'.padEnd(34)}${cells((f) => micros(f.processMicros))}`);
    const threads = [...new Set(columns.flatMap((f) => [...f.byThread.keys()]))];
    for (const name of threads.filter((name) => columns.some((f) => (f.byThread.get(name) ?? 0) >= 1)))
      out(`  thread ${name.padEnd(25)}${cells((f) => micros(f.byThread.get(name)))}`);
    out(`${'collections/s alone'.padEnd(34)}${cells((f) => f.collectOnly.toFixed(0).padStart(10))}`);
    out(`${'searches/s while collecting'.padEnd(34)}${cells((f) => f.searchDuring.toFixed(0).padStart(10))}`);
    out(`${'  x searches alone'.padEnd(34)}${cells((f) => (f.searchDuring / searchAlone).toFixed(2).padStart(10))}`);
    out(`${'collections/s meanwhile'.padEnd(34)}${cells((f) => f.during.toFixed(0).padStart(10))}`);
    out(`searches alone (the current build, same run): ${searchAlone.toFixed(0)} req/s`);
    out(`\n${'while searches run'.padEnd(34)}${cells((f) => f.label.padStart(10))}   (resource thread CPU ms per second)`);
    for (const name of [...items.map((item) => item.name), otherJs])
      out(`  ${name.padEnd(32)}${cells((f) => micros(f.duringPerSecond.get(name)))}`);
    out(`${'resource thread, total'.padEnd(34)}${cells((f) => micros(f.duringThreadMs))}`);
    const printTop = (title: string, top: (figures: CollectingFigures) => Map<string, number>) => {
      for (const figures of columns) {
        out(`\n${figures.label}: ${title}: self time by function (samples)`);
        for (const [name, count] of [...top(figures)].sort((a, b) => b[1] - a[1]).slice(0, topCount))
          out(`  ${String(count).padStart(6)}  ${name}`);
      }
    };
    if (topCount > 0) {
      printTop('collecting alone', (figures) => figures.top);
      printTop('while searches run, resource thread', (figures) => figures.topDuring);
    }
  } finally {
    await emulator.stop();
    rmSync(warm.dir, { recursive: true, force: true });
  }
}

await main();
