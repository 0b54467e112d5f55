// A TCP relay on 127.0.0.1 in front of a test server (a nats-server) that can hold back what the
// server sends by a fixed lag: a node behind it hears the cluster late, as a busy node does,
// while what it sends arrives at once. Bytes keep their order; closing either side closes both.
import { connect, createServer, type Socket } from 'node:net';
import type { Test } from 'tap';

export interface LaggingRelay {
  readonly port: number;
  /** From now on, every chunk the server sends reaches the client `ms` after it arrived here. */
  setLag(ms: number): void;
}

export async function startLaggingRelay(t: Test, targetPort: number): Promise<LaggingRelay> {
  let lagMs = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
      socket.on('error', () => undefined);
    }
    client.pipe(upstream);
    // One chain per connection: each chunk waits for the one before it, then for its own lag.
    let sent = Promise.resolve();
    upstream.on('data', (chunk: Buffer) => {
      const due = Date.now() + lagMs;
      sent = sent
        .then(() => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, due - Date.now()))))
        .then(() => void (client.destroyed || client.write(chunk)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the relay has no TCP address');
  return {
    port: address.port,
    setLag(ms) {
      lagMs = ms;
    },
  };
}
