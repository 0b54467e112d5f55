// A JetStream collection queue on its own connection to a test nats-server, closed with the test.
import type { Test } from 'tap';
import { JetStreamCollectionQueue, type JetStreamQueueOptions } from '../../src/cluster/jetStreamQueue.js';
import { closeNats, connectNats } from '../../src/cluster/natsConnection.js';
import type { NatsConnection } from '@nats-io/transport-node';

/** Short enough that tests can let leases expire; the margin still covers loopback round trips. */
export const testQueueOptions: JetStreamQueueOptions = {
  leaseMs: 1_000,
  leaseMarginMs: 200,
  maxLeasesOut: 1_000,
  requestTimeoutMs: 2_000,
  replicas: 1,
};

export interface TestQueue {
  queue: JetStreamCollectionQueue;
  connection: NatsConnection;
}

export async function openTestQueue(t: Test, url: string, name: string): Promise<TestQueue> {
  const connection = await connectNats({ servers: [url], name });
  const queue = await JetStreamCollectionQueue.open(connection, testQueueOptions);
  t.teardown(async () => {
    queue.close();
    await closeNats(connection, 500);
  });
  return { queue, connection };
}

/** Long enough for NATS to have redelivered every lease taken before the call. */
export const untilLeasesExpire = () => new Promise<void>((resolve) => setTimeout(resolve, testQueueOptions.leaseMs + 300));
