// A `datapoints serve` child process that a crash test kills with SIGKILL at a moment of its
// choosing, also before it has started listening (test/helpers/cli.ts waits for the line).
import { spawn } from 'node:child_process';
import type { Test } from 'tap';
import { cliPath } from '../helpers/cli.js';

export interface CrashableServer {
  /** The base URL once the server prints it; rejects if the process ends first. */
  listening: Promise<string>;
  /** SIGKILL, unless the process is gone already; resolves once it is gone. */
  kill(): Promise<void>;
  /** Everything the process printed, for failure messages. */
  output(): string;
}

/**
 * Only a hung start-up reaches this (it takes ~1.5 s quiet, 20 s and more on a 2-core box loaded
 * by another suite): the wait ends on the line or on the process's exit, and this limit, short of
 * tap's 120 s per file, only makes a hang print the server's output.
 */
const startTimeoutMs = 90_000;

export function spawnServer(t: Test, args: string[]): CrashableServer {
  const child = spawn(process.execPath, [cliPath, 'serve', '--host', '127.0.0.1', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'warn' },
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  // Teardown runs even when an assertion or the test itself failed.
  t.teardown(() => {
    if (running()) child.kill('SIGKILL');
  });
  let output = '';
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then(() => reject(new Error(`server ended (${child.signalCode ?? child.exitCode}) before listening:\n${output}`)));
    setTimeout(() => reject(new Error(`server not listening after ${startTimeoutMs} ms:\n${output}`)), startTimeoutMs).unref();
  });
  // A round that kills the server during start-up never awaits `listening`.
  listening.catch(() => undefined);
  return {
    listening,
    async kill() {
      if (running()) child.kill('SIGKILL');
      await exited;
    },
    output: () => output,
  };
}
