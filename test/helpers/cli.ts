// Drives the built command-line program as an operator would: real child processes.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';

export const cliPath = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));

export function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  if (!existsSync(cliPath)) throw new Error(`${cliPath} is missing: run npm run build (npm test does)`);
  const result = spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Resolves with the exit code and how long the process took to exit after the signal. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
}

export function startServer(t: Test, args: string[]): Promise<ServerProcess> {
  const child = spawn(process.execPath, [cliPath, 'serve', '--host', '127.0.0.1', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'warn' },
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        resolve({
          child,
          url: match[1]!,
          async stop(signal = 'SIGTERM') {
            const started = Date.now();
            child.kill(signal);
            const result = await exited;
            return { ...result, ms: Date.now() - started };
          },
        });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then(({ code }) => reject(new Error(`server exited with ${code} before listening:\n${output}`)));
  });
}
