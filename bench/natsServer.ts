// A nats-server with JetStream in its own process, on a port of its own on 127.0.0.1 and its own
// store directory, never a NATS the machine may already run. Shared by the cluster benchmark and
// the tests (test/helpers/natsServer.ts), which add killing and restarting.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect as connectTcp } from 'node:net';

/** Debian's nats-server package installs it here; NATS_SERVER overrides it (read at each start). */
const natsServerBinary = () => process.env.NATS_SERVER ?? '/usr/sbin/nats-server';
const readyWithinMs = 10_000;

/**
 * Starts nats-server on `port` with its store in `storeDir` (pinned to `cores` when given) and
 * resolves once it accepts connections.
 */
export async function spawnNatsServer(port: number, storeDir: string, cores?: readonly number[]): Promise<ChildProcess> {
  const binary = natsServerBinary();
  const args = ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir];
  const child = cores
    ? spawn('taskset', ['-c', cores.join(','), binary, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
    : spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  await untilAcceptingConnections(child, port, binary);
  return child;
}

/** A port nothing listens on now (the OS picks it; it is free again once our probe closes). */
export function freePort(): Promise<number> {
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
async function untilAcceptingConnections(child: ChildProcess, port: number, binary: string): Promise<void> {
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4_000);
  });
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`nats-server exited (${code ?? signal}) before it was ready:\n${log}`)));
    child.once('error', (error) =>
      reject(new Error(`cannot run ${binary} (install Debian's nats-server, or set NATS_SERVER): ${error.message}`)),
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
