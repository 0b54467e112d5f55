// `npm run bench:collection-cost`: what one github collection costs the resource thread, in CPU
// µs split by item (bench/README.md, "Cost account"), and searches beside a backlog
// (docs/architecture.md#searches-first). One server (`--threads 1`, pinned to the server core,
// under `node --cpu-prof`) collects 200k due github accounts from an emulator on the other core:
//  1. collection alone: collections/s, and the resource thread's CPU per collection by item;
//  2. search-10-warm with wrk while it collects: searches/s and collections/s;
// then a second server on an idle copy of the warm set gives search-10-warm alone, so that the
// ratio of 2 to it is a same-run ratio.
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { CollectionProgress, collectionsPerSecond } from './collectionProgress.js';
import { busiestProfile, file, monotonicMicros, otherJs, perUnit, profilingFlags, threadCpu, type ProfileItem } from './cpuProfile.js';
import { cachedDataSet, copyOf, freshDataSet, scratchDir } from './datasets.js';
import { preflight } from './preflight.js';
import { cliEntry, loadCore, serverCore, startPinned, startServer } from './processes.js';
import { warmTen } from './scenarios.js';
import { runWrk } from './wrk.js';
import { ensureWrk } from './wrk.js';

const { values: flags } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    top: { type: 'string', default: '0' },
  },
});
const seconds = Number(flags.seconds);
const topCount = Number(flags.top);
const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const dueCount = 200_000;

/** Deepest claim wins, as in the search's account. */
const items: ProfileItem[] = [
  { name: 'due index and scheduler', claims: (_f, u) => /\/src\/(resources\/dueScheduler|store\/dueIndex)/.test(u) },
  { name: 'transition history', claims: file('/src/store/transitionHistory.js') },
  { name: 'view posting to edges', claims: file('/src/threads/publishingStore.js') },
  { name: 'view change feed and push', claims: (_f, u) => u.includes('/src/push/') },
  { name: 'resource log', claims: file('/src/cluster/resourceLog') },
  { name: 'conditional commit (store)', claims: file('/src/store/resourceStore.js') },
  { name: 'LMDB (lmdb-js, msgpackr)', claims: (_f, u) => /\/(lmdb|msgpackr|ordered-binary)\//.test(u) },
  { name: 'view rendering', claims: file('/src/resources/view.js') },
  { name: 'machine step (XState)', claims: (_f, u) => u.includes('/machines/') || u.includes('/xstate/') },
  { name: 'work registry and pace', claims: (_f, u) => /\/src\/resources\/(workRegistry|workPace)\.js/.test(u) },
  { name: 'resource host', claims: file('/src/resources/host.js') },
  { name: 'collection loop and queue', claims: (_f, u) => u.includes('/src/collection/') || u.includes('/rxjs/') },
  { name: 'upstream call (platform, undici)', claims: (_f, u) => u.includes('/src/platforms/') || u.includes('undici') },
  { name: 'garbage collection', claims: (f) => f === '(garbage collector)' },
  { name: 'V8 and native', claims: (f) => f === '(program)' },
];

const micros = (value: number | undefined) => (value === undefined || value < 0.05 ? '-' : value.toFixed(1)).padStart(8);

async function main(): Promise<void> {
  ensureWrk();
  const template = await cachedDataSet('collect-github', { platform: 'github', count: dueCount + 100, due: { from: 100, at: Date.now() } });
  const data = copyOf(template, 'collection-cost');
  const warm = await freshDataSet('collection-cost-warm', { count: 1_000 });
  const profiles = scratchDir('collection-cost-profiles');
  const emulator = await startPinned([loadCore], [cliEntry, 'emulator', '--port', '0']);
  const progress = new CollectionProgress(data.dir);
  try {
    log('collecting under --cpu-prof ...');
    const server = await startPinned(
      [serverCore],
      [
        ...profilingFlags(profiles),
        cliEntry,
        'serve',
        '--host',
        '127.0.0.1',
        '--port',
        '0',
        '--data',
        data.dir,
        '--upstream',
        emulator.url,
        '--threads',
        '1',
      ],
    );
    let collectOnly: number;
    let during: number;
    let searchDuring: number;
    let window: { from: number; to: number; cpu: number; process: number; collected: number };
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
      window = { from, to, cpu: delta(String(server.pid)), process: processCpu, collected: last.collected - first.collected };

      log('searches while collecting ...');
      const shape = warmTen(data.token).shape;
      await preflight(server.url, shape, 200);
      await runWrk(server.url, shape, 2, 'cw');
      const start = progress.count();
      const run = await runWrk(server.url, shape, seconds, 'cm');
      during = collectionsPerSecond(start, progress.count());
      searchDuring = run.requestsPerSecond;
      if (progress.count().waiting === 0) log('  (the backlog ran dry: collect more due resources)');
    } finally {
      await server.stop();
    }

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

    const account = busiestProfile(profiles, items, window.from, window.to);
    if (!account) throw new Error('no profile samples in the collection window');
    const perItem = perUnit(account, window.cpu, window.collected);
    const out = (line: string) => process.stdout.write(`${line}\n`);
    out(
      `github collection from an emulator, ${seconds} s windows, load average ${loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')}`,
    );
    out(`collection alone: ${collectOnly.toFixed(0)} collections/s`);
    out(`${'item'.padEnd(34)}${'µs'.padStart(8)}   (resource thread CPU per collection)`);
    for (const name of [...items.map((item) => item.name), otherJs]) out(`  ${name.padEnd(32)}${micros(perItem.get(name))}`);
    out(`${'resource thread, total'.padEnd(34)}${micros(window.cpu / window.collected)}`);
    out(`${'whole process'.padEnd(34)}${micros(window.process / window.collected)}`);
    out(
      `searches while collecting: ${searchDuring.toFixed(0)} req/s = ${(searchDuring / searchAlone).toFixed(2)} x alone (${searchAlone.toFixed(0)} req/s); collections meanwhile ${during.toFixed(0)}/s`,
    );
    if (topCount > 0) {
      out('\nself time by function (samples)');
      for (const [name, count] of [...account.unclaimed].sort((a, b) => b[1] - a[1]).slice(0, topCount))
        out(`  ${String(count).padStart(6)}  ${name}`);
    }
  } finally {
    await progress.close();
    await emulator.stop();
    for (const dir of [data.dir, warm.dir, profiles]) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
