// Child processes of the benchmark: servers pinned to one core, the load generator to the
// other, so that neither steals cycles from the other (issue 4).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The core the server under test runs on, and the one wrk (and helpers) run on. */
export const serverCore = 0;
export const loadCore = 1;

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

/** Spawns `node args...` pinned to `core` and resolves once it prints its listening line. */
export function startPinned(core: number, args: string[], env: Record<string, string> = {}): Promise<RunningServer> {
  const started = performance.now();
  const child = spawn('taskset', ['-c', String(core), process.execPath, ...args], {
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
        stop: () => stop(child),
      });
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
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

export interface Memory {
  /** Resident set size now, and its peak (VmHWM), in MiB. */
  rssMiB: number;
  peakRssMiB: number;
  /** The anonymous part (heaps): file-backed LMDB pages are counted in RSS but are the page cache. */
  anonMiB: number;
}

/** Memory of a process (taskset execs node in place, so the pid is node's). */
export function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMiB: kib('VmRSS') / 1024, peakRssMiB: kib('VmHWM') / 1024, anonMiB: kib('RssAnon') / 1024 };
}
