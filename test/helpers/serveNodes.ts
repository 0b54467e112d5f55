// Three `datapoints serve --nats` processes on one test nats-server, as the cluster tests run
// them: each on its own data directory (removed with the test), with 1, 2 and 1 edge threads so
// that edges borrowing the resource thread's ledgers are part of every run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { startServer, type ServerProcess } from './cli.js';

export async function serveThreeNodes(t: Test, natsUrl: string): Promise<{ dirs: string[]; nodes: ServerProcess[] }> {
  const dirs = [0, 1, 2].map(() => mkdtempSync(join(tmpdir(), 'datapoints-node-')));
  t.teardown(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const nodes = await Promise.all(
    dirs.map((dir, index) =>
      startServer(t, ['--nats', natsUrl, '--data', dir, '--upstream', 'emulator', '--threads', String(1 + (index % 2))]),
    ),
  );
  return { dirs, nodes };
}
