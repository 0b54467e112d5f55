// The node's connection to NATS (docs/cluster.md#connection): one connection per node, which
// must reach a server to start and, once started, reconnects by itself for as long as it runs.
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { clusterDefaults } from '../config.js';

export interface NatsOptions {
  /** Server URLs as `nats://HOST:PORT`; the client tries them in turn. */
  servers: string[];
  /** The node's name, shown by the server's monitoring for this connection. */
  name: string;
}

export class NatsServersError extends Error {}

/**
 * Reads the `--nats` value: `nats://HOST:PORT` URLs separated by commas. Throws NatsServersError
 * naming the first entry that is not one.
 */
export function parseNatsServers(text: string): string[] {
  const entries = text.split(',').map((entry) => entry.trim());
  return entries.map((entry) => {
    const url = URL.canParse(entry) ? new URL(entry) : undefined;
    const port = Number(url?.port);
    if (url?.protocol !== 'nats:' || url.hostname === '' || !(port >= 1 && port <= 65_535) || url.pathname !== '') {
      throw new NatsServersError(`--nats takes nats://HOST:PORT[,nats://HOST:PORT...]; "${entry}" is not one`);
    }
    return `nats://${url.host}`;
  });
}

/** Connects, or rejects when no server answers now; a connection once made never gives up. */
export function connectNats(options: NatsOptions): Promise<NatsConnection> {
  return connect({
    servers: options.servers,
    name: options.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: clusterDefaults.reconnectWaitMs,
    timeout: clusterDefaults.requestTimeoutMs,
    // By default the client builds an Error (a stack trace) for every request it sends, in case
    // it times out; a collecting node sends several per collection, and those Errors cost about
    // a tenth of its CPU (bench/HISTORY.md, 2026-11-26 "Cluster"). Errors keep their message without it.
    noAsyncTraces: true,
  });
}

/**
 * Lets published messages and subscriptions finish, then closes. While NATS is unreachable a
 * drain cannot finish, so after `graceMs` the connection is closed as it is.
 */
export async function closeNats(connection: NatsConnection, graceMs: number = clusterDefaults.requestTimeoutMs): Promise<void> {
  if (connection.isClosed()) return;
  let graceOver: NodeJS.Timeout | undefined;
  const drained = connection.isDraining() ? connection.closed() : connection.drain();
  await Promise.race([drained.catch(() => undefined), new Promise((resolve) => (graceOver = setTimeout(resolve, graceMs)))]);
  clearTimeout(graceOver);
  await connection.close();
}
