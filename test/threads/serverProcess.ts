// A `datapoints serve` child process with extra Node options (--import of a fixture), whose
// stdout lines and stderr are kept for the test to read.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';
import { cliPath } from '../helpers/cli.js';

export interface Served {
  url: string;
  /** Every stdout line printed up to and including the `listening on` line and the next. */
  lines: string[];
  /** Everything printed on stdout so far (the log lines among it). */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process has ended, by itself or stopped. */
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

export const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** Starts the server and resolves once it printed `listening on` and, with `--metrics`, the metrics line. */
export function serve(t: Test, args: string[], nodeOptions: string[] = [], env: Record<string, string> = {}): Promise<Served> {
  const child = spawn(process.execPath, [...nodeOptions, cliPath, 'serve', '--host', '127.0.0.1', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const wantsMetrics = args.includes('--metrics') || env.DATAPOINTS_METRICS !== undefined;
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const lines = stdout.split('\n').filter((line) => line !== '');
      const listening = lines.findIndex((line) => line.startsWith('listening on '));
      if (listening < 0 || (wantsMetrics && lines.length < listening + 2)) return;
      resolve({
        url: lines[listening]!.slice('listening on '.length),
        lines,
        stdout: () => stdout,
        stderr: () => stderr,
        exited,
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    });
    void exited.then((code) => reject(new Error(`server exited with ${code} before listening:\n${stdout}${stderr}`)));
  });
}
