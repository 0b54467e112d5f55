// npm and npx running `datapoints serve` from this project, and the server process they start,
// found by its command line: for the npm start and npx system tests.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';
import { eventually } from '../helpers/service.js';
import { watch, type WatchedProcess } from './processes.js';

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
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Whether `condition` holds within `ms`, polled. */
export const within = async (ms: number, condition: () => boolean | Promise<boolean>): Promise<boolean> =>
  eventually(
    async () => condition(),
    (held) => held,
    ms,
  );

export const serveArgs = (data: string) => ['--host', '127.0.0.1', '--port', '0', '--data', data, '--upstream', 'emulator'];

export async function npmStart(
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
