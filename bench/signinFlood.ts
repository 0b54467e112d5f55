// `npm run bench:signin-flood`: what a flood of sign-ins by visitors costs the searches of a paying
// account, measured in one invocation as searches alone, then the same searches during the flood
// (docs/dashboard.md#password-hashing; the method: bench/README.md#sign-in-flood).
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { freshDataSet } from './datasets.js';
import { log, sleep } from './log.js';
import { loadCore, startPinned, serveArgv, serverCore } from './processes.js';
import { bearer, searchBody, searchPath, tenSeeded } from './requests.js';
import { connections, ensureWrk, runWrk, type WrkResult } from './wrk.js';

const seconds = Number(process.env.FLOOD_SECONDS ?? 10);
/** Sign-ins out at once: more than the hasher runs and queues, so that it is kept full. */
const floodConcurrency = 64;
/** Each flooding address tries fewer names than the throttle refuses after, so every attempt is hashed. */
const attemptsPerAddress = 9;
/** Another build's dist/src/cli.js to measure instead of this one (`--cli PATH`), e.g. the main branch's. */
const cliArgument = process.argv.indexOf('--cli');
const cli = cliArgument > 0 ? process.argv[cliArgument + 1] : undefined;

interface Answer {
  status: number;
  text: string;
  cookie: string | undefined;
}

function send(
  url: string,
  path: string,
  options: { method: string; headers?: Record<string, string | number>; body?: string; localAddress?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request(
      `${url}${path}`,
      { method: options.method, headers: options.headers, agent: false, localAddress: options.localAddress },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () =>
          resolve({
            status: answer.statusCode!,
            text: Buffer.concat(chunks).toString(),
            cookie: answer.headers['set-cookie']?.[0]?.split(';')[0],
          }),
        );
      },
    );
    sent.on('error', reject);
    sent.end(options.body);
  });
}

/** Searches for `seconds` by wrk (64 keep-alive connections on the load core), 10 warm resources each. */
function searchLoad(url: string, token: string, nonce: string): Promise<WrkResult> {
  return runWrk(url, { path: searchPath, headers: bearer(token), bodies: [searchBody(tenSeeded())] }, seconds, nonce);
}

/**
 * Wrong sign-ins for names nobody has, from ever new loopback addresses (all of 127.0.0.0/8 is this
 * machine), so that the throttle refuses none and every attempt asks for a hash: the visitors'
 * worst case. Stops when `running()` turns false; the answers by status.
 */
async function signinFlood(url: string, running: () => boolean): Promise<Record<number, number>> {
  const form = await send(url, '/dashboard/signin', { method: 'GET' });
  const csrf = /name="csrf" value="([^"]+)"/.exec(form.text)?.[1];
  if (!form.cookie || !csrf) throw new Error(`no sign-in form: ${form.status}`);
  const statuses: Record<number, number> = {};
  let attempt = 0;
  const client = async () => {
    while (running()) {
      const index = attempt++;
      const address = Math.floor(index / attemptsPerAddress);
      const localAddress = `127.${1 + (address >> 16)}.${(address >> 8) & 255}.${address & 255}`;
      const body = new URLSearchParams({ csrf, name: `visitor${index}`, password: 'not the password' }).toString();
      const headers = {
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': Buffer.byteLength(body),
        cookie: form.cookie!,
      };
      const { status } = await send(url, '/dashboard/signin', { method: 'POST', headers, body, localAddress });
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: floodConcurrency }, client));
  return statuses;
}

const fixed = (value: number) => value.toFixed(1);
const row = (label: string, figures: WrkResult) =>
  `${label.padEnd(14)} ${fixed(figures.requestsPerSecond).padStart(9)} ${fixed(figures.p50Ms).padStart(8)} ${fixed(figures.p99Ms).padStart(8)} ${String(figures.non2xx).padStart(8)} ${String(figures.socketErrors).padStart(13)}`;

async function main(): Promise<void> {
  execFileSync('taskset', ['-pc', String(loadCore), String(process.pid)], { stdio: 'ignore' });
  ensureWrk();
  const data = await freshDataSet('signin-flood', { count: 100 });
  const server = await startPinned([serverCore], serveArgv({ data: data.dir, threads: 1, ...(cli ? { cli } : {}) }));
  try {
    await sleep(1_000);
    log(`sign-in flood: ${seconds} s of searches alone, then ${seconds} s of the same during a flood of sign-ins`);
    const quiet = await searchLoad(server.url, data.token, 'alone');
    let flooding = true;
    const flood = signinFlood(server.url, () => flooding);
    // The flood fills the hasher before the searches are timed.
    await sleep(1_000);
    const loaded = await searchLoad(server.url, data.token, 'flood');
    flooding = false;
    const attempts = await flood;
    const out = (line: string) => process.stdout.write(`${line}\n`);
    out(
      `server: ${cli ?? 'this build'}, --threads 1 on core ${serverCore}; searches: wrk, ${connections} connections, 10 warm resources each`,
    );
    out(
      `${'searches'.padEnd(14)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'non-2xx'.padStart(8)} ${'socket errors'.padStart(13)}`,
    );
    out(row('alone', quiet));
    out(row('during flood', loaded));
    out(
      `ratio flood/alone: req/s ${(loaded.requestsPerSecond / quiet.requestsPerSecond).toFixed(2)}, p50 ${(loaded.p50Ms / quiet.p50Ms).toFixed(2)}, p99 ${(loaded.p99Ms / quiet.p99Ms).toFixed(2)}`,
    );
    out(`sign-ins during the flood (${floodConcurrency} at once, by status): ${JSON.stringify(attempts)}`);
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`sign-in flood bench failed: ${String(error instanceof Error ? error.stack : error)}\n`);
  process.exit(1);
});
