// A real nats-server with JetStream for one test: its own free port on 127.0.0.1 and its own
// temp store directory, never a NATS the machine may already run. It can be killed with SIGKILL
// and started again on the same port and store, as a crashed server restarted by its supervisor.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Test } from 'tap';
import { freePort, spawnNatsServer } from '../../bench/natsServer.js';
import { eventually } from './eventually.js';

export interface TestNatsServer {
  readonly url: string;
  readonly port: number;
  readonly storeDir: string;
  /** SIGKILL, as a crash: nothing is flushed or closed in order. Resolves once the process is gone. */
  kill(): Promise<void>;
  /** Starts the server again on the same port and store; resolves once it accepts connections. */
  restart(): Promise<void>;
}

export async function startNatsServer(t: Test): Promise<TestNatsServer> {
  const storeDir = mkdtempSync(join(tmpdir(), 'datapoints-nats-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const killOnExit = () => child?.kill('SIGKILL');
  process.on('exit', killOnExit);

  const kill = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGKILL');
    await exited;
  };
  const start = async () => {
    if (child) throw new Error('nats-server is already running');
    child = await spawnNatsServer(port, storeDir);
  };

  t.teardown(async () => {
    await kill();
    process.off('exit', killOnExit);
    rmSync(storeDir, { recursive: true, force: true });
  });
  await start();
  return { url: `nats://127.0.0.1:${port}`, port, storeDir, kill, restart: start };
}

/**
 * Resolves when `connection` has reconnected. Call it before the server goes away: a request
 * written while the client has not yet noticed the loss is lost with the socket.
 */
export async function untilReconnected(connection: NatsConnection): Promise<void> {
  for await (const status of connection.status()) {
    if (status.type === 'reconnect') return;
  }
  throw new Error('the connection closed without reconnecting');
}

/**
 * Resolves once a message block of `stream` in the server's store holds `bytes`. nats-server 2.9
 * writes a message to its block file (the OS's cache, not synced) before confirming it, but
 * without fsync (docs/design/cluster.md#durability): a kill -9 after this loses nothing
 * of it, where a fixed pause would only guess.
 */
export async function untilStored(server: TestNatsServer, stream: string, bytes: string): Promise<void> {
  const blocks = join(server.storeDir, 'jetstream', '$G', 'streams', stream, 'msgs');
  const stored = () =>
    readdirSync(blocks)
      .filter((name) => name.endsWith('.blk'))
      .some((name) => readFileSync(join(blocks, name)).includes(bytes));
  await eventually(stored, (held) => held, { intervalMs: 5, orFail: `${stream} storing ${JSON.stringify(bytes)}` });
}
