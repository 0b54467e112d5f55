// A clean stop (SIGTERM) with a collection in flight finishes it or gives it back, so that a
// restart on the same data directory serves or collects that resource at once instead of
// after its lease (docs/architecture.md#stopping). Real child processes and signals.
import { spawn } from 'node:child_process';
import t, { type Test } from 'tap';
import { cli, cliPath, startServer } from '../helpers/cli.js';
import { searchPath, tempDataDir } from '../helpers/service.js';

const tokenFor = (data: string): string => {
  cli(['accounts', 'create', 'acme', '--plan', 'paid', '--data', data]);
  return cli(['tokens', 'create', 'acme', '--data', data]).stdout.trim().split('\n').at(-1)!;
};

async function statusOf(url: string, token: string, identifier: string): Promise<string> {
  const response = await fetch(url + searchPath, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ resources: [{ platform: 'github', type: 'account', identifier }] }),
  });
  const body = await response.json();
  return body.data[0].status;
}

/** Polls until the resource is available; returns how long that took, or Infinity after `limitMs`. */
async function availableWithin(url: string, token: string, identifier: string, limitMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    if ((await statusOf(url, token, identifier)) === 'available') return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Number.POSITIVE_INFINITY;
}

/** A standalone emulator process, so that its faults outlive the server's restart. */
async function startEmulatorProcess(t: Test): Promise<string> {
  const child = spawn(process.execPath, [cliPath, 'emulator', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.teardown(() => void child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /emulator listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.on('exit', () => reject(new Error(`emulator ended before listening:\n${output}`)));
  });
}

async function setFault(emulator: string, identifier: string, mode: string): Promise<void> {
  const response = await fetch(`${emulator}/_emulator/faults`, {
    method: 'POST',
    body: JSON.stringify({ platform: 'github', identifier, mode }),
  });
  if (response.status !== 204) throw new Error(`fault not set: ${response.status}`);
}

t.test('clean stop - a collection answering within the grace is recorded before the process exits', async (t) => {
  const data = tempDataDir(t);
  const token = tokenFor(data);
  const first = await startServer(t, ['--upstream', 'emulator', '--data', data]);
  // The emulator answers slow* accounts after 3 s.
  t.equal(await statusOf(first.url, token, 'slowpoke'), 'pending');
  await new Promise((resolve) => setTimeout(resolve, 300));
  const stopped = await first.stop('SIGTERM');
  t.equal(stopped.code, 0, 'exits 0');
  t.ok(stopped.ms < 5_000, `stopped within 5 s (${stopped.ms} ms)`);

  const second = await startServer(t, ['--upstream', 'emulator', '--data', data]);
  t.equal(await statusOf(second.url, token, 'slowpoke'), 'available', 'the answer that came during the stop was kept');
  await second.stop('SIGTERM');
});

t.test('clean stop - a collection still out at the end of the grace is given back and collected at once after a restart', async (t) => {
  const data = tempDataDir(t);
  const token = tokenFor(data);
  const emulator = await startEmulatorProcess(t);
  await setFault(emulator, 'hangs', 'timeout');
  const first = await startServer(t, ['--upstream', emulator, '--data', data]);
  t.equal(await statusOf(first.url, token, 'hangs'), 'pending');
  await new Promise((resolve) => setTimeout(resolve, 300));
  const stopped = await first.stop('SIGTERM');
  t.equal(stopped.code, 0, 'exits 0');
  t.ok(stopped.ms < 5_000, `stopped within 5 s (${stopped.ms} ms)`);

  await setFault(emulator, 'hangs', 'none');
  const second = await startServer(t, ['--upstream', emulator, '--data', data]);
  // Without giving back, the resource would wait for its 60 s lease to end.
  const tookMs = await availableWithin(second.url, token, 'hangs', 10_000);
  t.ok(tookMs < 2_000, `available ${tookMs} ms after the restart (lease: 60 s)`);
  await second.stop('SIGTERM');
});
