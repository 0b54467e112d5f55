// `npm run bench:cost`: the CPU µs one warm 10-resource search costs, split into the floor's items
// (what no implementation can skip) and the service's own, from CPU profiles (bench/README.md#cost-account).
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { digestToken } from '../src/auth/tokens.js';
import { validateSearchText } from '../src/api/validation.js';
import {
  busiestProfile,
  file,
  monotonicMicros,
  native,
  otherJs,
  perUnit,
  profilingFlags,
  threadCpu,
  type ProfileItem,
} from './cpuProfile.js';
import { cachedDataSet, freshDataSet, scratchDir } from './datasets.js';
import { accountOptions, benchFlags, readAccountFlags } from './flags.js';
import { log } from './log.js';
import { preflight } from './preflight.js';
import { baselineEntry, cliEntry, serveArgv, serverCore, startPinned, type RunningServer } from './processes.js';
import { coldTen, warmTen } from './scenarios.js';
import { ensureWrk, runWrk, type LoadShape } from './wrk.js';

const flags = benchFlags({
  ...accountOptions,
  /** The cold 10-resource search over the cached 1M set (bench/README.md#cost-account) instead of the warm one. */
  million: { type: 'boolean', default: false },
});
const { seconds: measureSeconds, topCount, compare } = readAccountFlags(flags);

/** An item of the search's account, the floor's or the service's own. */
interface Item extends ProfileItem {
  floor: boolean;
}

/** Deepest claim wins: JSON.parse inside validation is JSON.parse, the rest of validation is validation. */
const items: Item[] = [
  { name: 'body read', floor: true, claims: (f, u) => file('/src/http/body.js')(f, u) || native('onData')(f, u) },
  // The common body's reader (both sides use it) or JSON.parse for any other body.
  { name: 'body parse', floor: true, claims: (f, u) => native('parse')(f, u) || file('/src/api/commonSearchBody.js')(f, u) },
  {
    name: 'SHA-256 of the token',
    floor: true,
    claims: (f, u) => file('/src/auth/tokens.js')(f, u) || native('hash')(f, u) || u.includes('internal/crypto'),
  },
  { name: 'headers', floor: true, claims: native('writeHeader', 'writeStatus') },
  {
    name: 'writing the answer',
    floor: true,
    claims: (f, u) => native('end', 'cork', 'endWithoutBody')(f, u) || file('/src/http/reply.js')(f, u),
  },
  { name: 'request id', floor: true, claims: file('/src/http/requestIds.js') },
  // The floor's own handler: its JSON.parse (V8 inlines it into the caller) and limit headers.
  { name: 'floor handler (JSON.parse...)', floor: true, claims: file('/bench/baselines/specFloor.js') },
  {
    name: 'authentication lookup',
    floor: false,
    claims: (_f, u) => /\/src\/access\/(authenticator|accountTable|authVersionBoard)\.js/.test(u),
  },
  {
    name: 'admission and counting',
    floor: false,
    claims: (_f, u) =>
      /\/src\/access\/(admission|quotaMeter|quotaLedger|rateLimiter|unitMeter|calendar)\.js/.test(u) ||
      /\/src\/threads\/port(Ledger|Calls)\.js/.test(u) ||
      // The reservations' writes: usage and daily usage, committed by lmdb-js (the edge writes nothing else).
      /\/src\/store\/(usageStore|dailyUsage|quotaLedger)\.js/.test(u) ||
      /\/lmdb\/write\.js/.test(u),
  },
  { name: 'validation', floor: false, claims: (_f, u) => /\/src\/api\/(validation|schema)\.js/.test(u) || u.includes('@sinclair/typebox') },
  // lmdb-js's reads and msgpack decoding: a cold search's views, and the ledger's reads beside a reservation.
  { name: 'LMDB reads', floor: false, claims: (_f, u) => /\/lmdb\/read\.js/.test(u) || u.includes('/msgpackr/') },
  { name: 'view lookups', floor: false, claims: (_f, u) => /\/src\/(resources\/view|threads\/edgeViews)\.js/.test(u) },
  { name: 'answer assembly', floor: false, claims: file('/src/api/searchResponse.js') },
  { name: 'demand', floor: false, claims: (_f, u) => /\/src\/(resources\/demand|threads\/demandMessenger)\.js/.test(u) },
  { name: 'access log', floor: false, claims: (_f, u) => /\/src\/(http\/accessLog|log)\.js/.test(u) || u.includes('pino') },
  { name: 'metrics', floor: false, claims: file('/src/metrics/') },
  { name: 'route and exchange', floor: false, claims: (_f, u) => /\/src\/http\/(searchRoute|server|cors)\.js/.test(u) },
  { name: 'garbage collection', floor: false, claims: (f) => f === '(garbage collector)' },
  // uWS's C++ (HTTP parsing, the event loop, syscalls) and V8 outside JavaScript.
  { name: 'uWS and V8 native', floor: false, claims: (f) => f === '(program)' },
];

interface Measured {
  label: string;
  answerBytes: number;
  requests: number;
  requestsPerSecond: number;
  /** CPU µs per request of the busiest thread (the one serving searches) and of the whole process. */
  searchThreadMicros: number;
  processMicros: number;
  /** µs per request per item, the search thread's CPU divided in proportion to its samples. */
  perItem: Map<string, number>;
  unclaimed: Map<string, number>;
}

/** Runs one server under --cpu-prof: warm-up, one measured wrk run, then its profiles. */
async function measure(label: string, args: string[], shape: LoadShape, expectStatus: number): Promise<Measured> {
  const profiles = scratchDir(`cost-${label}`);
  let server: RunningServer | undefined = await startPinned([serverCore], [...profilingFlags(profiles), ...args]);
  try {
    const answer = await preflight(server.url, shape, expectStatus);
    await runWrk(server.url, shape, 3, `${label}w`);
    const cpuBefore = threadCpu(server.pid);
    const from = monotonicMicros();
    const run = await runWrk(server.url, shape, measureSeconds, `${label}m`);
    const to = monotonicMicros();
    const cpuAfter = threadCpu(server.pid);
    if (run.non2xx + run.socketErrors > 0) throw new Error(`${label}: ${run.non2xx} non-2xx, ${run.socketErrors} socket errors`);
    await server.stop();
    server = undefined;
    const deltas = [...cpuAfter].map(([tid, after]) => after - (cpuBefore.get(tid) ?? 0));
    const processCpu = deltas.reduce((sum, value) => sum + value, 0);
    const searchThreadCpu = Math.max(...deltas);
    // The search thread's profile is the one busiest in the window.
    const busiest = busiestProfile(profiles, items, from, to);
    if (!busiest) throw new Error(`${label}: no profile samples in the measured window`);
    const perItem = perUnit(busiest, searchThreadCpu, run.requests);
    return {
      label,
      answerBytes: answer.bytes,
      requests: run.requests,
      requestsPerSecond: run.requestsPerSecond,
      searchThreadMicros: searchThreadCpu / run.requests,
      processMicros: processCpu / run.requests,
      perItem,
      unclaimed: busiest.unclaimed,
    };
  } finally {
    await server?.stop();
    rmSync(profiles, { recursive: true, force: true });
  }
}

const pad = (text: string, width: number) => text.padEnd(width);
const micros = (value: number | undefined) => (value === undefined || value < 0.05 ? '-' : value.toFixed(1)).padStart(8);

/** One column per measured server: the service (and the build compared with it), then the floor. */
function print(columns: readonly Measured[]): void {
  const rows: string[] = [];
  const cells = (value: (measured: Measured) => string) => columns.map(value).join('');
  rows.push(`${pad('item', 28)}${cells((m) => m.label.padStart(9))}   (CPU µs per request, search thread)`);
  const section = (title: string, names: string[]) => {
    rows.push(title);
    for (const name of names) rows.push(`  ${pad(name, 26)}${cells((m) => micros(m.perItem.get(name)))}`);
  };
  section(
    "the floor's items",
    items.filter((item) => item.floor).map((item) => item.name),
  );
  section("the service's own", [...items.filter((item) => !item.floor).map((item) => item.name), otherJs]);
  const sum = (measured: Measured, floorItems: boolean) =>
    [...measured.perItem].reduce(
      (total, [name, value]) => total + ((items.find((item) => item.name === name)?.floor ?? false) === floorItems ? value : 0),
      0,
    );
  rows.push(`${pad('floor items, total', 28)}${cells((m) => micros(sum(m, true)))}`);
  rows.push(`${pad('the rest, total', 28)}${cells((m) => micros(sum(m, false)))}`);
  rows.push(`${pad('search thread, total', 28)}${cells((m) => micros(m.searchThreadMicros))}`);
  rows.push(`${pad('whole process', 28)}${cells((m) => micros(m.processMicros))}`);
  rows.push(`${pad('requests/s', 28)}${cells((m) => m.requestsPerSecond.toFixed(0).padStart(9))}`);
  const floor = columns[columns.length - 1]!;
  for (const measured of columns.slice(0, -1)) {
    rows.push(
      `${measured.label} / floor: requests/s ${(measured.requestsPerSecond / floor.requestsPerSecond).toFixed(2)} x; CPU per request ${(floor.searchThreadMicros / measured.searchThreadMicros).toFixed(2)} x`,
    );
  }
  process.stdout.write(`${rows.join('\n')}\n`);
  if (topCount > 0) {
    for (const measured of columns) {
      const top = [...measured.unclaimed].sort((a, b) => b[1] - a[1]).slice(0, topCount);
      process.stdout.write(`\n${measured.label}: self time by function (samples)\n`);
      for (const [name, count] of top) process.stdout.write(`  ${String(count).padStart(6)}  ${name}\n`);
    }
  }
}

/**
 * CPU µs of one call of `work`, in this process, over many iterations: for the steps V8 inlines
 * into their callers (JSON.parse inside validation), which the profile cannot split out.
 */
function microMicros(work: () => unknown, iterations = 200_000): number {
  for (let index = 0; index < iterations / 10; index++) work();
  const before = process.cpuUsage();
  for (let index = 0; index < iterations; index++) work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / iterations;
}

function printMicro(body: string, token: string): void {
  const parse = microMicros(() => JSON.parse(body));
  const validate = microMicros(() => validateSearchText(body));
  const digest = microMicros(() => digestToken(token));
  process.stdout.write(
    `in-process, the same body (runner's core, unpinned): JSON.parse ${parse.toFixed(2)} µs; validateSearchText (JSON.parse included) ${validate.toFixed(2)} µs; SHA-256 of the token ${digest.toFixed(2)} µs\n`,
  );
}

async function main(): Promise<void> {
  ensureWrk();
  log(
    `load before: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  const millionCount = 1_000_000;
  // The 1M set is the cached one `npm run bench` seeds (and seeds here if missing); searches only read it.
  const data = flags.million ? await cachedDataSet('million', { count: millionCount }) : await freshDataSet('cost', { count: 1_000 });
  try {
    const scenario = flags.million ? coldTen(data.token, millionCount) : warmTen(data.token);
    const serve = (cli: string) => serveArgv({ cli, data: data.dir, threads: 1 });
    log('service under --cpu-prof ...');
    const service = await measure('service', serve(cliEntry), scenario.shape, 200);
    const compared = compare ? [await measure('compared', serve(compare), scenario.shape, 200)] : [];
    log('spec floor under --cpu-prof ...');
    const floor = await measure('floor', [baselineEntry('specFloor'), String(service.answerBytes)], scenario.shape, 200);
    process.stdout.write(
      `${flags.million ? 'cold 10-resource search over 1M resources' : 'warm 10-resource search'}, ${measureSeconds} s each, load average ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}\n`,
    );
    print([service, ...compared, floor]);
    printMicro(scenario.shape.bodies[0]!, data.token);
  } finally {
    if (!flags.million) rmSync(data.dir, { recursive: true, force: true });
  }
}

await main();
