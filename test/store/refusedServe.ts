// `datapoints serve` on a data directory it must refuse, as an operator runs it.
import { spawnSync } from 'node:child_process';
import { cliPath } from '../helpers/cli.js';

export const serveArgs = (dataDir: string, upstream = 'emulator') => [
  'serve',
  '--host',
  '127.0.0.1',
  '--port',
  '0',
  '--data',
  dataDir,
  '--upstream',
  upstream,
];

/** Runs a `serve` that is expected to refuse: it must end on its own (a started server would not). */
export function serveRefused(dataDir: string, upstream = 'emulator') {
  const result = spawnSync(process.execPath, [cliPath, ...serveArgs(dataDir, upstream)], { encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
