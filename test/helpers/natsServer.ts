// A real nats-server with JetStream for one test: its own free port on 127.0.0.1 and its own
// temp store directory, never a NATS the machine may already run. It can be killed with SIGKILL
// and started again on the same port and store, as a crashed server restarted by its supervisor.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect as connectTcp } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Test } from 'tap';

/** Debian's nats-server package installs it here; NATS_SERVER overrides it. */
const natsServerBinary = process.env.NATS_SERVER ?? '/usr/sbin/nats-server';
const readyWithinMs = 10_000;

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
    child = spawn(natsServerBinary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await untilAcceptingConnections(child, port);
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

/** A port nothing listens on now (the OS picks it; it is free again once our probe closes). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/**
 * Resolves once the server greets a TCP client with its INFO line. nats-server opens the client
 * port only after JetStream has recovered its store, so a greeting means streams are back too.
 */
async function untilAcceptingConnections(child: ChildProcess, port: number): Promise<void> {
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4_000);
  });
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`nats-server exited (${code ?? signal}) before it was ready:\n${log}`)));
    child.once('error', (error) =>
      reject(new Error(`cannot run ${natsServerBinary} (install Debian's nats-server, or set NATS_SERVER): ${error.message}`)),
    );
  });
  exited.catch(() => undefined);
  const deadline = Date.now() + readyWithinMs;
  while (Date.now() < deadline) {
    if (await Promise.race([greets(port), exited])) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`nats-server did not accept connections on ${port} within ${readyWithinMs} ms:\n${log}`);
}

function greets(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectTcp({ host: '127.0.0.1', port });
    socket.setTimeout(1_000);
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('INFO '));
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}
