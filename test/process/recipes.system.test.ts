// The recipes a new user copies (README.md "Try it offline", docs/history.md#seeing-a-series-move),
// run by bash as written: on free ports they run to the end against the server they started; with
// another server already on the port they stop loudly and never ask it anything. And the line
// they wait for comes before readiness (docs/operations-endpoints.md#readiness-while-starting).
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { freePort } from '../../bench/natsServer.js';
import { cliPath } from '../helpers/cli.js';
import { eventually } from '../helpers/eventually.js';

const root = new URL('../../', import.meta.url);

/** The `sh` blocks of the section under `heading`, up to the next heading of its level or higher, joined. */
function recipe(file: string, heading: string): string {
  const lines = readFileSync(new URL(file, root), 'utf8').split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`${file}: no heading ${heading}`);
  const level = heading.indexOf(' ');
  const script: string[] = [];
  let fence: 'sh' | 'other' | undefined;
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('```')) {
      fence = fence ? undefined : line === '```sh' ? 'sh' : 'other';
      continue;
    }
    if (fence === 'sh') script.push(line);
    else if (!fence && /^#+ /.test(line) && line.indexOf(' ') <= level) break;
  }
  if (script.length === 0) throw new Error(`${file}: no sh block under ${heading}`);
  return `${script.join('\n')}\n`;
}

/**
 * What bash runs before a recipe: `npm ci` is the build the test runs on, `npx datapoints` the
 * built program (without npx's start-up), and of the recipe's pauses only the wait loop's are
 * kept (the others let a person see a count arrive; nothing here asserts it).
 */
const prelude = `npm() { :; }
npx() { shift; node ${JSON.stringify(cliPath)} "$@"; }
sleep() { [ "$1" = 0.2 ] && command sleep 0.2; return 0; }
`;

interface RecipeRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The recipe's working directory, where its logs are. */
  dir: string;
}

/**
 * Runs `script` in bash in a directory of its own, in a process group of its own: what the recipe
 * left running (its server, its emulator) is stopped with the group once bash is done.
 */
async function runRecipe(t: Test, script: string, env: Record<string, string>): Promise<RecipeRun> {
  const dir = mkdtempSync(join(tmpdir(), 'datapoints-recipe-'));
  const child: ChildProcess = spawn('bash', ['-c', prelude + script], {
    cwd: dir,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const group = child.pid!;
  const alive = () => {
    try {
      process.kill(-group, 0);
      return true;
    } catch {
      return false;
    }
  };
  t.teardown(async () => {
    if (alive()) process.kill(-group, 'SIGTERM');
    await eventually(alive, (running) => !running, { timeoutMs: 20_000, orFail: "the recipe's processes ending" });
    rmSync(dir, { recursive: true, force: true });
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { status, stdout, stderr, dir };
}

/** A server already on the port, as one left from an earlier try: ready, refusing every token. */
async function serverAlreadyOn(t: Test, port: number): Promise<{ requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(request.url === '/readyz' ? 200 : 401, { 'content-type': 'application/json' });
    response.end(request.url === '/readyz' ? '{"ready":true,"problems":[]}' : '{"error":"invalid token"}');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { requests };
}

/** The JSON documents a recipe printed on one line each (`accounts create`'s, the API's answers). */
const documents = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{"'))
    .map((line) => JSON.parse(line));

/** The API's answers among them, failing the test on a refusal. */
function answers(t: Test, stdout: string) {
  const found = documents(stdout);
  t.same(
    found.filter((document) => 'error' in document || 'errors' in document),
    [],
    'no refusal',
  );
  return found.filter((document) => Array.isArray(document.data));
}

const offline = recipe('README.md', '### Try it offline');
const seriesMove = recipe('docs/history.md', '## Seeing a series move');

t.test('the offline recipe runs to the end against the server it started', async (t) => {
  const port = await freePort();
  const run = await runRecipe(t, offline, { PORT: String(port) });
  t.equal(run.status, 0, run.stderr);
  const url = `http://127.0.0.1:${port}`;
  t.match(run.stdout, new RegExp(`^${url}$`, 'm'), 'the address its own server printed');
  const answered = answers(t, run.stdout);
  t.same(
    answered.map((answer) => answer.data[0].identifier),
    ['octocat', 'octocat', 'Gargron@mastodon.social', 'octocat'],
    'two searches, a Mastodon account on its home server and a history',
  );
  t.equal(answered[0].data[0].status, 'pending', 'new to the service');
  t.match(run.stdout, new RegExp(`^${url}/dashboard/invite#[A-Za-z0-9_-]+$`, 'm'), 'an invite to its own server');
  t.notMatch(run.stdout, /listening on|"level"/, 'the log went to its file');
  t.match(readFileSync(join(run.dir, 'demo-data.log'), 'utf8'), /^listening on /m);
});

t.test('the offline recipe with another server on its port stops loudly and asks it nothing', async (t) => {
  const port = await freePort();
  const other = await serverAlreadyOn(t, port);
  const run = await runRecipe(t, offline, { PORT: String(port) });
  t.not(run.status, 0, 'the recipe fails');
  t.match(run.stderr, `serve did not start: datapoints: port ${port} is in use`);
  t.same(other.requests, [], 'the other server was asked nothing');
  t.same(documents(run.stdout), [], 'no answer from anyone');
});

t.test('the series recipe runs to the end on its own emulator and server', async (t) => {
  const [port, emulatorPort] = [await freePort(), await freePort()];
  const run = await runRecipe(t, seriesMove.replaceAll('8090', String(emulatorPort)), { PORT: String(port) });
  t.equal(run.status, 0, run.stderr);
  t.same(
    answers(t, run.stdout).map((answer) => answer.data[0].identifier),
    ['octocat', 'octocat', 'octocat'],
    'three histories',
  );
});

t.test('the series recipe with another server on its port stops loudly and asks it nothing', async (t) => {
  const [port, emulatorPort] = [await freePort(), await freePort()];
  const other = await serverAlreadyOn(t, port);
  const run = await runRecipe(t, seriesMove.replaceAll('8090', String(emulatorPort)), { PORT: String(port) });
  t.not(run.status, 0, 'the recipe fails');
  t.match(run.stderr, `serve did not start: datapoints: port ${port} is in use`);
  t.same(other.requests, [], 'the other server was asked nothing');
});

t.test('the series recipe with another program on the emulator port stops before serve starts', async (t) => {
  const [port, emulatorPort] = [await freePort(), await freePort()];
  const other = await serverAlreadyOn(t, emulatorPort);
  const run = await runRecipe(t, seriesMove.replaceAll('8090', String(emulatorPort)), { PORT: String(port) });
  t.not(run.status, 0, 'the recipe fails');
  t.match(run.stderr, `the emulator did not start: datapoints: port ${emulatorPort} is in use`);
  t.same(other.requests, [], 'the other program was asked nothing');
});

t.test('readiness is never true before serve has printed that it listens', async (t) => {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'datapoints-start-'));
  const log = join(dir, 'serve.log');
  // Written straight to a file: when /readyz first answers 200, the file already holds the line.
  const out = openSync(log, 'w');
  const child = spawn(
    process.execPath,
    [
      cliPath,
      'serve',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--data',
      join(dir, 'data'),
      '--upstream',
      'emulator',
      '--threads',
      '2',
    ],
    { stdio: ['ignore', out, out] },
  );
  closeSync(out);
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  t.teardown(async () => {
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  });
  const seen: string[] = [];
  const ready = await eventually(
    async () => {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
      if (!response) return false;
      const body = await response.json();
      if (response.status === 200) return /^listening on /m.test(readFileSync(log, 'utf8')) ? 'after the line' : 'before the line';
      seen.push(body.problems.map((problem: { message: string }) => problem.message).join(', '));
      return false;
    },
    (answer) => answer !== false,
    { intervalMs: 5, timeoutMs: 60_000, orFail: '/readyz answering 200' },
  );
  t.equal(ready, 'after the line');
  for (const problems of new Set(seen)) t.match(problems, /^starting: /, 'not ready before it: starting');
});
