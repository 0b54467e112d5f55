// Drives the command line: in process through runCli (the fast tier), or the built program as an
// operator would, in real child processes (the system tier).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';
import { runCli } from '../../src/cli/main.js';

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * One command in process, as the binary would run it: its exit status and what it wrote. The
 * environment given is set for the command's run only (commands read process.env, as the binary).
 */
export async function cliInProcess(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const saved = Object.entries(env).map(([name]) => [name, process.env[name]] as const);
  Object.assign(process.env, env);
  try {
    const status = await runCli(args, {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
    });
    return { status, stdout, stderr };
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

export const cliPath = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));

export function cli(args: string[]): CliResult {
  if (!existsSync(cliPath)) throw new Error(`${cliPath} is missing: run npm run build (npm test does)`);
  const result = spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
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
          output: () => output,
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

/** The last line a command printed (a token's secret, an invite link). */
export const lastLine = (text: string) => text.trim().split('\n').at(-1)!;

/** A command's output of one JSON document per line. */
export const jsonLines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
