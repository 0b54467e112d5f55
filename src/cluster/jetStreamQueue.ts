// The collection queue of a cluster (docs/cluster.md, "The collection queue"): a JetStream
// work-queue stream holding one message per requested resource, taken through one durable pull
// consumer that every node shares. A message stays in the stream until it is acknowledged, and
// the stream refuses a second message on a subject that holds one, so a key is not queued again
// while it waits or is leased. The consumer's ack wait is the lease: NATS delivers an
// unacknowledged message again once it runs out, to whichever node pulls next.
import { randomUUID } from 'node:crypto';
import { Subject, type Observable } from 'rxjs';
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  JetStreamApiError,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { nanos, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import type { CollectionQueue, Lease } from '../collection/ports.js';
import { pullNow, type PullTarget } from './pullNow.js';

/** Names every node of a cluster shares (docs/cluster.md, "Streams, consumers, subjects"). */
export const collectionQueueNames = {
  stream: 'DATAPOINTS_COLLECT',
  consumer: 'collectors',
  /** One subject per resource: `datapoints.collect.work.<base64url of the key>`. */
  workSubjectPrefix: 'datapoints.collect.work',
  /** Core NATS, not stored: a node announces here that work is waiting. */
  waitingSubject: 'datapoints.collect.waiting',
} as const;

/** The JetStream error a publish gets when its subject holds a message already (max per subject 1, discard new). */
const subjectHoldsAMessage = 10_077;
/** The JetStream error adding a stream that exists with another configuration. */
const streamExistsOtherwise = 10_058;

export interface JetStreamQueueOptions {
  /** The lease: how long a taken request may go unanswered before it is delivered again. */
  leaseMs: number;
  /** A holder treats its lease as expired this much earlier than NATS does. */
  leaseMarginMs: number;
  /** Leases out at once across the cluster. */
  maxLeasesOut: number;
  /** How long a JetStream call waits for its answer. */
  requestTimeoutMs: number;
  /** Copies of the stream kept by a NATS cluster (1 for a single nats-server). */
  replicas: number;
}

interface Held {
  ackSubject: string;
  /** performance.now() after which the lease may have been delivered to someone else. */
  expiresAt: number;
}

export class JetStreamCollectionQueue implements CollectionQueue {
  private readonly signal = new Subject<void>();
  readonly waiting: Observable<void> = this.signal.asObservable();
  /** Leases this queue handed out and has not yet answered. */
  private readonly held = new WeakMap<Lease, Held>();
  /** Tells this queue's own announcements from other nodes'. */
  private readonly announcer = randomUUID();
  private readonly announcements: Subscription;
  private readonly target: PullTarget = { stream: collectionQueueNames.stream, consumer: collectionQueueNames.consumer };

  /** Creates the stream and consumer, or brings them to `options`, and opens the queue on them. */
  static async open(connection: NatsConnection, options: JetStreamQueueOptions): Promise<JetStreamCollectionQueue> {
    const manager = await jetstreamManager(connection, { timeout: options.requestTimeoutMs });
    await ensureWorkQueue(manager, options);
    return new JetStreamCollectionQueue(connection, jetstream(connection, { timeout: options.requestTimeoutMs }), options);
  }

  private constructor(
    private readonly connection: NatsConnection,
    private readonly client: JetStreamClient,
    private readonly options: JetStreamQueueOptions,
  ) {
    this.announcements = connection.subscribe(collectionQueueNames.waitingSubject, {
      callback: (error, message) => {
        if (!error && message.string() !== this.announcer) this.signal.next();
      },
    });
  }

  async request(key: string): Promise<void> {
    try {
      await this.client.publish(workSubject(key), key);
    } catch (error) {
      // The key waits or is leased: that message answers this request (it is also what a
      // publish retried after a lost answer runs into).
      if (error instanceof JetStreamApiError && error.code === subjectHoldsAMessage) return;
      throw error;
    }
    this.announce();
  }

  async take(limit: number): Promise<Lease[]> {
    if (limit < 1) return [];
    // The server starts the ack wait when it delivers, which is after the pull is sent.
    const expiresAt = performance.now() + this.options.leaseMs - this.options.leaseMarginMs;
    const delivered = await pullNow(this.connection, this.target, limit, this.options.requestTimeoutMs);
    return delivered.map(({ text, ackSubject, delivery }) => {
      const lease: Lease = { key: text, delivery };
      this.held.set(lease, { ackSubject, expiresAt });
      return lease;
    });
  }

  async ack(lease: Lease): Promise<void> {
    await this.answer(lease, '+ACK');
  }

  async release(lease: Lease): Promise<void> {
    if (await this.answer(lease, '-NAK')) this.announce();
  }

  /** Stops listening for other nodes' announcements; the connection is the caller's to close. */
  close(): void {
    this.announcements.unsubscribe();
    this.signal.complete();
  }

  /**
   * Sends the lease's answer and waits for the server to confirm it. A lease past its expiry is
   * dropped unanswered, as the in-process queue drops it: NATS may have delivered it again, and
   * an answer now would acknowledge or redeliver the other holder's work (docs/cluster.md,
   * "Leases"). Returns whether the answer was sent.
   */
  private async answer(lease: Lease, verb: '+ACK' | '-NAK'): Promise<boolean> {
    const held = this.held.get(lease);
    if (!held) return false;
    if (performance.now() >= held.expiresAt) {
      this.held.delete(lease);
      return false;
    }
    await this.connection.request(held.ackSubject, verb, { timeout: this.options.requestTimeoutMs });
    this.held.delete(lease);
    return true;
  }

  private announce(): void {
    this.signal.next();
    this.connection.publish(collectionQueueNames.waitingSubject, this.announcer);
  }
}

/** A subject token any key can take: NATS subjects split on '.' and reserve '*', '>' and spaces. */
function workSubject(key: string): string {
  return `${collectionQueueNames.workSubjectPrefix}.${Buffer.from(key).toString('base64url')}`;
}

async function ensureWorkQueue(manager: JetStreamManager, options: JetStreamQueueOptions): Promise<void> {
  const stream = {
    name: collectionQueueNames.stream,
    subjects: [`${collectionQueueNames.workSubjectPrefix}.>`],
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
    num_replicas: options.replicas,
    max_msgs_per_subject: 1,
    discard: DiscardPolicy.New,
    discard_new_per_subject: true,
  };
  try {
    await manager.streams.add(stream);
  } catch (error) {
    if (!(error instanceof JetStreamApiError && error.code === streamExistsOtherwise)) throw error;
    await manager.streams.update(stream.name, stream);
  }
  // nats-server 2.9 creates a durable consumer, or updates it when it exists with other settings.
  await manager.consumers.add(collectionQueueNames.stream, {
    durable_name: collectionQueueNames.consumer,
    ack_policy: AckPolicy.Explicit,
    ack_wait: nanos(options.leaseMs),
    deliver_policy: DeliverPolicy.All,
    max_deliver: -1,
    max_ack_pending: options.maxLeasesOut,
  });
}
