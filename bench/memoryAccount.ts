// `npm run bench:memory`: where the anonymous memory of a server goes during `search-10-cold-1M`,
// per thread's V8 heap and the native rest, for this build, another, or this one under other
// environment variables, in one invocation (bench/README.md#memory-account).
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { cachedDataSet, freshDataSet, scratchDir } from './datasets.js';
import { benchFlags, positiveNumber } from './flags.js';
import { log, sleep } from './log.js';
import { memoryOf, sampleMemory } from './memory.js';
import { preflight } from './preflight.js';
import { cliEntry, loadCore, serveArgv, serverCore, startPinned } from './processes.js';
import { coldTen, warmTen, type ScenarioShape } from './scenarios.js';
import { ensureWrk, runWrk } from './wrk.js';

const flags = benchFlags({
  seconds: { type: 'string', default: '12' },
  /** Another build's dist/src/cli.js, measured in the same run. */
  compare: { type: 'string' },
  /** NAME=VALUE[,NAME=VALUE...]: this build once more with those variables set (e.g. MALLOC_ARENA_MAX=2); repeatable. */
  env: { type: 'string', multiple: true, default: [] },
  /** Rounds of every contender, in turn (A B A B ...). */
  rounds: { type: 'string', default: '1' },
  /** 2: two search threads, the server on both cores (as `--threads 2` of bench/README.md#scenarios). */
  threads: { type: 'string', default: '1' },
});
const seconds = positiveNumber('seconds', flags.seconds);
const rounds = positiveNumber('rounds', flags.rounds);
const threads = flags.threads === '2' ? 2 : 1;
const serverCores = threads === 2 ? [serverCore, loadCore] : [serverCore];

interface Contender {
  label: string;
  cli: string;
  env: Record<string, string>;
}

/** One thread's V8 heap, in MiB, from Node's diagnostic report. */
interface ThreadHeap {
  committed: number;
  used: number;
  young: number;
  old: number;
  large: number;
  code: number;
  external: number;
  malloced: number;
}

interface Account {
  label: string;
  startAnon: number;
  peakAnon: number;
  endAnon: number;
  threads: ThreadHeap[];
  /** Anonymous resident MiB of glibc's main arena ([heap]) and of the rest of the anonymous maps. */
  brkHeap: number;
  otherAnon: number;
  coldPerSecond: number;
  warmPerSecond: number;
  warmP99: number;
  /** Answers other than 200 in the cold and warm runs (an exhausted quota shows here). */
  unexpected: number;
}

const mib = (bytes: number) => bytes / 2 ** 20;

function heapOf(report: { javascriptHeap: Record<string, unknown> }): ThreadHeap {
  const heap = report.javascriptHeap as { heapSpaces: Record<string, { committedMemory: number }> } & Record<
    'totalCommittedMemory' | 'usedMemory' | 'externalMemory' | 'mallocedMemory',
    number
  >;
  const space = (name: string) => mib(heap.heapSpaces[name]?.committedMemory ?? 0);
  return {
    committed: mib(heap.totalCommittedMemory),
    used: mib(heap.usedMemory),
    young: space('new_space') + space('new_large_object_space'),
    old: space('old_space'),
    large: space('large_object_space'),
    code: space('code_space') + space('code_large_object_space'),
    external: mib(heap.externalMemory),
    malloced: mib(heap.mallocedMemory),
  };
}

/** Node's diagnostic report, taken on a signal: the main thread's heap and each worker's. */
async function heapsOf(pid: number, dir: string): Promise<ThreadHeap[]> {
  process.kill(pid, 'SIGUSR2');
  for (let waited = 0; waited < 200; waited++) {
    const written = readdirSync(dir).find((name) => name.endsWith('.json'));
    if (written) {
      // The file is complete once it parses.
      try {
        const report = JSON.parse(readFileSync(join(dir, written), 'utf8'));
        return [heapOf(report), ...(report.workers as (typeof report)[]).map(heapOf)];
      } catch {}
    }
    await sleep(100);
  }
  throw new Error(`no diagnostic report from ${pid}`);
}

/** Anonymous resident MiB of the brk heap (glibc's main arena) and of every other anonymous map. */
function anonymousMaps(pid: number): { brkHeap: number; otherAnon: number } {
  let brkHeap = 0;
  let total = 0;
  let inBrk = false;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) inBrk = line.endsWith('[heap]');
    const anonymous = /^Anonymous:\s+(\d+) kB/.exec(line);
    if (!anonymous) continue;
    const size = Number(anonymous[1]) / 1024;
    total += size;
    if (inBrk) brkHeap += size;
  }
  return { brkHeap, otherAnon: total - brkHeap };
}

async function account(
  contender: Contender,
  millionDir: string,
  cold: ScenarioShape,
  warm: ScenarioShape,
  warmDir: string,
): Promise<Account> {
  const reports = scratchDir('memory-report');
  const reportFlags = ['--report-on-signal', '--report-signal=SIGUSR2', `--report-directory=${reports}`];
  const server = await startPinned(
    serverCores,
    [...reportFlags, ...serveArgv({ cli: contender.cli, data: millionDir, threads })],
    contender.env,
  );
  try {
    const startAnon = memoryOf(server.pid).anonMiB;
    await preflight(server.url, cold.shape, cold.expectStatus, cold.check);
    const sampler = sampleMemory(server.pid);
    const coldRun = await runWrk(server.url, cold.shape, seconds, `m${Date.now().toString(36)}`);
    const peaks = sampler.stop();
    const endAnon = memoryOf(server.pid).anonMiB;
    const heaps = await heapsOf(server.pid, reports);
    const maps = anonymousMaps(server.pid);
    await server.stop();
    // The warm search on its own set: the speed a cut must keep.
    const warmServer = await startPinned(serverCores, serveArgv({ cli: contender.cli, data: warmDir, threads }), contender.env);
    try {
      await preflight(warmServer.url, warm.shape, warm.expectStatus, warm.check);
      await runWrk(warmServer.url, warm.shape, 2, `w${Date.now().toString(36)}`);
      const warmRun = await runWrk(warmServer.url, warm.shape, 4, `w${Date.now().toString(36)}`);
      return {
        label: contender.label,
        startAnon,
        peakAnon: peaks.peakAnonMiB,
        endAnon,
        threads: heaps,
        ...maps,
        coldPerSecond: coldRun.requestsPerSecond,
        warmPerSecond: warmRun.requestsPerSecond,
        warmP99: warmRun.p99Ms,
        unexpected: coldRun.non2xx + warmRun.non2xx,
      };
    } finally {
      await warmServer.stop();
    }
  } finally {
    await server.stop();
    rmSync(reports, { recursive: true, force: true });
  }
}

function print(accounts: readonly Account[]): void {
  const f = (value: number) => value.toFixed(1).padStart(7);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(
    `search-10-cold-1M for ${seconds} s on --threads ${threads}, then search-10-warm for 4 s; MiB; load average ${loadavg()
      .map((v) => v.toFixed(2))
      .join(' ')}`,
  );
  for (const a of accounts) {
    out(`\n${a.label}: RssAnon ${f(a.startAnon)} at start, ${f(a.peakAnon)} peak, ${f(a.endAnon)} after the run`);
    out(
      `  cold ${a.coldPerSecond.toFixed(0)} req/s; warm ${a.warmPerSecond.toFixed(0)} req/s, p99 ${a.warmP99.toFixed(2)} ms; ${a.unexpected} answers not 200`,
    );
    out('  thread        V8 committed   used  young    old  large   code  external  malloced');
    a.threads.forEach((t, index) => {
      const name = index === 0 ? 'main' : `edge ${index - 1}`;
      out(
        `  ${name.padEnd(12)} ${f(t.committed)}      ${f(t.used)}${f(t.young)}${f(t.old)}${f(t.large)}${f(t.code)}   ${f(t.external)}   ${f(t.malloced)}`,
      );
    });
    const v8 = a.threads.reduce((sum, t) => sum + t.committed, 0);
    out(
      `  anonymous maps after the run: [heap] (malloc's main arena) ${f(a.brkHeap)}, others ${f(a.otherAnon)} (V8 heaps ${f(v8)}, the rest: thread arenas, lmdb, uWS, stacks ${f(a.otherAnon - v8)})`,
    );
  }
}

async function main(): Promise<void> {
  ensureWrk();
  const contenders: Contender[] = [{ label: 'this build', cli: cliEntry, env: {} }];
  if (flags.compare) contenders.push({ label: `compared (${flags.compare})`, cli: flags.compare, env: {} });
  for (const settings of flags.env) {
    const env: Record<string, string> = {};
    for (const setting of settings.split(',')) {
      const [name, value] = setting.split('=', 2);
      if (!name || value === undefined) throw new Error(`--env wants NAME=VALUE[,NAME=VALUE...], not '${settings}'`);
      env[name] = value;
    }
    contenders.push({ label: `this build, ${settings}`, cli: cliEntry, env });
  }
  const million = await cachedDataSet('million', { count: 1_000_000 });
  const warmSet = await freshDataSet('memory', { count: 1_000 });
  try {
    const accounts: Account[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const contender of contenders) {
        log(`${contender.label}, round ${round + 1} ...`);
        accounts.push(await account(contender, million.dir, coldTen(million.token, 1_000_000), warmTen(warmSet.token), warmSet.dir));
      }
    }
    print(accounts);
  } finally {
    rmSync(warmSet.dir, { recursive: true, force: true });
  }
}

await main();
