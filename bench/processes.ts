// Child processes of the benchmark: servers pinned to the server core, the load generator to
// the other, so that neither steals cycles from the other (bench/README.md#the-machine).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The core the server under test runs on, and the one wrk (and helpers) run on. */
export const serverCore = 0;
export const loadCore = 1;

const distRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
export const cliEntry = join(distRoot, 'src', 'cli.js');
export const baselineEntry = (name: string) => join(distRoot, 'bench', 'baselines', `${name}.js`);

export interface RunningServer {
  url: string;
  pid: number;
  /** From spawn to the `listening on` line, in ms. */
  startupMs: number;
  /** Everything the child wrote to stderr so far (for failure reports). */
  stderr(): string;
  stop(): Promise<void>;
}

const listeningLine = /listening on (http:\/\/\S+)/;

/** Spawns `node args...` pinned to `cores` and resolves once it prints its listening line. */
export function startPinned(cores: readonly number[], args: string[], env: Record<string, string> = {}): Promise<RunningServer> {
  const started = performance.now();
  const child = spawn('taskset', ['-c', cores.join(','), process.execPath, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    let stdout = '';
    const onExit = (code: number | null) => reject(new Error(`${args.join(' ')} exited with ${code} before listening:\n${stderr}`));
    child.once('exit', onExit);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = listeningLine.exec(stdout);
      if (!match) return;
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      child.off('exit', onExit);
      resolve({
        url: match[1]!.replace('0.0.0.0', '127.0.0.1'),
        pid: child.pid!,
        startupMs: performance.now() - started,
        stderr: () => stderr,
        stop: () => stopProcess(child),
      });
    });
  });
}

/** SIGTERM, then SIGKILL if it is still there 6 s later; resolves once it exited. */
export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 6_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

const threadsFlags = new Map<string, boolean>();

/**
 * Whether a built CLI (this build's unless told) accepts `serve --threads N`. Asked without a
 * value, so that neither answer starts anything: a CLI that knows the flag complains of the
 * missing value, one that does not names it as unknown.
 */
export function cliAcceptsThreads(cli: string = cliEntry): boolean {
  let accepts = threadsFlags.get(cli);
  if (accepts === undefined) {
    const probe = spawnSync(process.execPath, [cli, 'serve', '--threads'], { encoding: 'utf8', timeout: 10_000 });
    accepts = !/unknown option '--threads'/i.test(`${probe.stderr}${probe.stdout}`);
    threadsFlags.set(cli, accepts);
  }
  return accepts;
}

export interface ServeOptions {
  data: string;
  /** `emulator` (in-process), or the URL of an emulator in its own process. */
  upstream?: string;
  /**
   * 1: one search thread, the whole server pinned to the server core (every scenario but
   * one). 2: two search threads, the server on both cores (sharing the load core with wrk).
   * Without `--threads` in the build, only 1 can run, as the one thread that build has.
   */
  threads: 1 | 2;
  /** The core a one-thread server is pinned to: the server core unless told (a second node of a cluster). */
  core?: number;
  /** Further `serve` flags, e.g. `--nats URL --role collect` or `--fresh-for 10s`. */
  flags?: readonly string[];
}

/** The one place a bench spells out `serve`'s argv: node's argv after its own flags. */
export function serveArgv(
  options: ServeOptions & { /** Another build's dist/src/cli.js (a --compare run); this build's unless told. */ cli?: string },
): string[] {
  const cli = options.cli ?? cliEntry;
  const args = [
    cli,
    'serve',
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--data',
    options.data,
    '--upstream',
    options.upstream ?? 'emulator',
    ...(options.flags ?? []),
  ];
  if (cliAcceptsThreads(cli)) args.push('--threads', String(options.threads));
  else if (options.threads !== 1) throw new Error(`${cli} has no serve --threads`);
  return args;
}

export function startServer(options: ServeOptions): Promise<RunningServer> {
  return startPinned(options.threads === 1 ? [options.core ?? serverCore] : [serverCore, loadCore], serveArgv(options));
}
