// Child processes of the built CLI (or of npm) whose output a test reads line by line.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { Test } from 'tap';
import { cliPath } from '../helpers/cli.js';

export interface WatchedProcess {
  child: ChildProcess;
  /** Resolves with the first match of `pattern` in stdout; rejects if the process ends first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
  stderr(): string;
}

export function watch(t: Test, command: string, args: string[], env: Record<string, string> = {}, cwd?: string): WatchedProcess {
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    cwd,
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return {
    child,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor(pattern, timeoutMs = 90_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(stdout);
          if (!match) return false;
          clearInterval(timer);
          resolve(match);
          return true;
        };
        const timer = setInterval(check, 20);
        if (check()) return;
        void exited.then(() =>
          setTimeout(() => {
            if (check()) return;
            // A poll left running would hold this process open after its last test.
            clearInterval(timer);
            reject(new Error(`ended before ${pattern}:\n${stdout}${stderr}`));
          }, 50),
        );
        setTimeout(() => {
          clearInterval(timer);
          reject(new Error(`no ${pattern} after ${timeoutMs} ms:\n${stdout}${stderr}`));
        }, timeoutMs).unref();
      });
    },
  };
}

/** The built CLI as a child process. */
export function watchCli(t: Test, args: string[], env: Record<string, string> = {}): WatchedProcess {
  return watch(t, process.execPath, [cliPath, ...args], env);
}

/** A port nobody holds right now (the kernel's pick, released at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether a plain listener (no SO_REUSEPORT) can take the port: nobody holds it. */
export async function portIsFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  const server = createServer();
  const bound = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => resolve(true));
  });
  if (bound) await new Promise((resolve) => server.close(resolve));
  return bound;
}
