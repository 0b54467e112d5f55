// A JetStream collection queue on its own connection to a test nats-server, closed with the test.
import type { Test } from 'tap';
import { defaultQueueOptions, JetStreamCollectionQueue, type JetStreamQueueOptions } from '../../src/seams/collection/jetStreamQueue.js';
import { closeNats, connectNats } from '../../src/cluster/natsConnection.js';
import type { NatsConnection } from '@nats-io/transport-node';
import { Health } from '../../src/health.js';

/** Leases short enough for tests to let them expire; the margin still covers loopback round trips. */
export const testQueueOptions: JetStreamQueueOptions = {
  ...defaultQueueOptions(1_000),
  leaseMarginMs: 200,
  maxLeasesOut: 1_000,
  requestTimeoutMs: 2_000,
  setupRetryMs: 200,
};

export interface TestQueue {
  queue: JetStreamCollectionQueue;
  connection: NatsConnection;
  health: Health;
}

export async function openTestQueue(t: Test, url: string, name: string): Promise<TestQueue> {
  const connection = await connectNats({ servers: [url], name });
  const health = new Health();
  // Closed with the test even when opening the queue fails, or the open connection keeps the
  // test process alive until tap's timeout.
  let queue: JetStreamCollectionQueue | undefined;
  t.teardown(async () => {
    queue?.close();
    await closeNats(connection, 500);
  });
  queue = await JetStreamCollectionQueue.open(connection, testQueueOptions, health);
  return { queue, connection, health };
}

/**
 * Long enough for NATS to have redelivered every lease taken before the call. Timed: NATS shows a
 * lease's end only by delivering it again (consumer info does not change when the ack wait ends).
 */
export const untilLeasesExpire = () => new Promise<void>((resolve) => setTimeout(resolve, testQueueOptions.leaseMs + 300));
