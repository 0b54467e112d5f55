// `datapoints serve` and `datapoints emulator` (operator-interface.md).
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { defaultPolicy, limits, serveDefaults } from '../config.js';
import { parseDuration } from '../duration.js';
import { startEmulator } from '../emulator/server.js';
import { createLogger } from '../log.js';
import { startService } from '../service.js';
import { UsageError } from './usageError.js';

function parsePort(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 65_535) throw new UsageError(`invalid --port '${text}': give 0-65535`);
  return Number(text);
}

function parseDurationFlag(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  try {
    return parseDuration(text);
  } catch (error) {
    throw new UsageError(`invalid --${flag}: ${(error as Error).message}`);
  }
}

/** Edge threads answering searches: one per CPU core unless told (docs/guarantees.md, "Threads"). */
function parseThreads(text: string | undefined): number {
  if (text === undefined) return availableParallelism();
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > limits.maxEdgeThreads) {
    throw new UsageError(`invalid --threads '${text}': give 1-${limits.maxEdgeThreads}`);
  }
  return Number(text);
}

function checkUpstream(upstream: string): string {
  if (upstream === 'real' || upstream === 'emulator') return upstream;
  try {
    const url = new URL(upstream);
    if (url.protocol === 'http:' || url.protocol === 'https:') return upstream;
  } catch {
    // reported below
  }
  throw new UsageError(`invalid --upstream '${upstream}': use real, emulator or an http(s) URL`);
}

/** Stops on SIGTERM/SIGINT, and never takes longer than the 5 s the operator is promised. */
function onTermination(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(0), limits.shutdownGraceMs + 800).unref();
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`error while stopping: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}

export async function serveCommand(args: string[], print: (line: string) => void): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      upstream: { type: 'string' },
      'fresh-for': { type: 'string' },
      'retry-base': { type: 'string' },
      threads: { type: 'string' },
    },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const env = process.env;
  const port = parsePort(values.port ?? env.PORT ?? String(serveDefaults.port));
  const host = values.host ?? env.HOST ?? serveDefaults.host;
  const policy = {
    ...defaultPolicy,
    freshForMs: parseDurationFlag('fresh-for', values['fresh-for'], defaultPolicy.freshForMs),
    retryBaseMs: parseDurationFlag('retry-base', values['retry-base'], defaultPolicy.retryBaseMs),
  };
  const service = await startService({
    host,
    port,
    dataDir: values.data ?? env.DATAPOINTS_DATA ?? serveDefaults.dataDir,
    upstream: checkUpstream(values.upstream ?? env.DATAPOINTS_UPSTREAM ?? serveDefaults.upstream),
    policy,
    log: createLogger(),
    threads: parseThreads(values.threads ?? env.DATAPOINTS_THREADS),
  });
  print(`listening on http://${host}:${service.port}`);
  onTermination(() => service.stop());
}

export async function emulatorCommand(args: string[], print: (line: string) => void): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { port: { type: 'string' } } });
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const emulator = await startEmulator(parsePort(values.port ?? '0'));
  print(`emulator listening on ${emulator.url}`);
  onTermination(async () => emulator.close());
}
