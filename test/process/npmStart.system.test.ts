// `npm start` stops as `datapoints serve` stops (docs/operations.md#signals): npm runs the
// script through `sh -c`; the server must neither be orphaned by a signal to npm nor outlive npm.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { tempDataDir } from '../helpers/service.js';
import { portIsFree, watch, type WatchedProcess } from './processes.js';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The pid of the node process serving from `data` (dist/src/cli.js or npx's link to it), found by its command line. */
function serverPid(data: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      // node itself, not npm or the shell between them (their command lines name it too).
      if (/(^|\/)node$/.test(argv[0]!) && argv.includes('serve') && argv.includes(data)) return Number(entry);
    } catch {
      // the process ended while we looked
    }
  }
  return undefined;
}

/** Gone, or a zombie nobody has reaped yet: either way it no longer serves. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function within(ms: number, condition: () => boolean | Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

const serveArgs = (data: string) => ['--host', '127.0.0.1', '--port', '0', '--data', data, '--upstream', 'emulator'];

async function npmStart(
  t: Test,
  data: string,
  command = ['start', '--', ...serveArgs(data)],
): Promise<{ npm: WatchedProcess; pid: number; port: number }> {
  const npm = watch(t, 'npm', command, {}, projectRoot);
  // npx may first install the project into its cache, building it: allow for that.
  const [, port] = await npm.waitFor(/^listening on http:\/\/127\.0\.0\.1:(\d+)$/m, 110_000);
  const pid = serverPid(data);
  if (pid === undefined) throw new Error('no server process found');
  t.teardown(() => {
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  });
  return { npm, pid, port: Number(port) };
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  t.test(`npm start - ${signal} to npm stops the server and frees the port within 5 s`, async (t) => {
    const data = tempDataDir(t);
    const { npm, pid, port } = await npmStart(t, data);
    t.equal(await portIsFree(port), false, 'the server holds its port');
    npm.child.kill(signal);
    t.ok(await within(5_000, () => !alive(pid)), 'the server process is gone');
    t.ok(await within(5_000, () => portIsFree(port)), 'the port is free');
    await npm.exited;
  });
}

t.test('npm start - a server whose npm is killed outright stops too', async (t) => {
  const data = tempDataDir(t);
  const { npm, pid, port } = await npmStart(t, data);
  npm.child.kill('SIGKILL');
  t.ok(await within(5_000, () => !alive(pid)), 'the server noticed npm went away and stopped');
  t.ok(await within(5_000, () => portIsFree(port)), 'the port is free');
});

t.test('npx datapoints serve - SIGTERM to npx stops the server, which npx runs through a shell', async (t) => {
  const data = tempDataDir(t);
  const { npm, pid, port } = await npmStart(t, data, ['exec', '--', 'datapoints', 'serve', ...serveArgs(data)]);
  npm.child.kill('SIGTERM');
  // The server learns of it by the parent watch; its output says where a slow stop spent its time.
  t.ok(await within(5_000, () => !alive(pid)), 'the server process is gone', { output: npm.stdout() + npm.stderr() });
  t.ok(await within(5_000, () => portIsFree(port)), 'the port is free');
});
