// The cluster's collection queue (docs/design/cluster.md#the-collection-queue): a JetStream
// work-queue stream of one message per requested resource, leased by the consumer's ack wait.
import { randomUUID } from 'node:crypto';
import { Subject, type Observable } from 'rxjs';
import { JetStreamApiError, jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { CollectionQueue, Lease } from './ports.js';
import { clusterDefaults } from '../../config.js';
import type { Health } from '../../health.js';
import { HeldLeases } from './heldLeases.js';
import { collectionQueueNames, ensureWorkQueue, subjectHoldsAMessage, type WorkQueueSettings } from '../../cluster/collectionStream.js';
import { pullNow, type PullTarget } from '../../cluster/pullNow.js';

export interface JetStreamQueueOptions extends WorkQueueSettings {
  /** The longest a live holder keeps a lease (the queue's lease length). */
  leaseMs: number;
  /** A holder treats its lease as expired this much earlier than NATS does. */
  leaseMarginMs: number;
  /** How long a JetStream call waits for its answer. */
  requestTimeoutMs: number;
  /** A take that finds nothing waits this long for work to arrive; none lasts longer (see pullNow). */
  pullExpiresMs: number;
  /** Pause between attempts to set the stream and consumer up again after a reconnect. */
  setupRetryMs: number;
}

/** The queue's options from the service's defaults, for a lease of `leaseMs`, on one nats-server. */
export function defaultQueueOptions(leaseMs: number): JetStreamQueueOptions {
  const { leaseMarginMs, ackWaitMs, maxLeasesOut, requestTimeoutMs, pullExpiresMs, setupRetryMs } = clusterDefaults;
  return {
    leaseMs,
    ackWaitMs: Math.min(ackWaitMs, leaseMs),
    leaseMarginMs,
    maxLeasesOut,
    requestTimeoutMs,
    pullExpiresMs,
    setupRetryMs,
    replicas: 1,
  };
}

/** The Health component the queue reports under while it cannot set its consumer up again. */
export const queueSetupHealth = 'collection queue setup';

export class JetStreamCollectionQueue implements CollectionQueue {
  private readonly signal = new Subject<void>();
  readonly waiting: Observable<void> = this.signal.asObservable();
  /** Leases this queue handed out and has not yet answered. */
  private readonly held: HeldLeases;
  /** Sends the in-progress acknowledgements of the leases held (docs/design/cluster.md#leases). */
  private readonly extender: NodeJS.Timeout;
  /** Tells this queue's own announcements from other nodes'. */
  private readonly announcer = randomUUID();
  private readonly announcements: Subscription;
  private readonly target: PullTarget = { stream: collectionQueueNames.stream, consumer: collectionQueueNames.consumer };
  /** How often the connection came back; a lease from before a reconnect is void. */
  private reconnects = 0;
  /** The setup after the last reconnect, while it is under way: takes get nothing meanwhile. */
  private settingUp: Promise<void> | undefined;
  private closed = false;

  /** Creates the stream and consumer, or brings them to `options`, and opens the queue on them. */
  static async open(connection: NatsConnection, options: JetStreamQueueOptions, health: Health): Promise<JetStreamCollectionQueue> {
    const manager = await jetstreamManager(connection, { timeout: options.requestTimeoutMs });
    await ensureWorkQueue(manager, options);
    const client = jetstream(connection, { timeout: options.requestTimeoutMs });
    return new JetStreamCollectionQueue(connection, manager, client, options, health);
  }

  private constructor(
    private readonly connection: NatsConnection,
    private readonly manager: JetStreamManager,
    private readonly client: JetStreamClient,
    private readonly options: JetStreamQueueOptions,
    private readonly health: Health,
  ) {
    this.held = new HeldLeases({ leaseMs: options.leaseMs, ackWaitMs: options.ackWaitMs, marginMs: options.leaseMarginMs });
    // Every sixth of the ack wait, so that each lease is extended between a third and a half of it after the last time.
    this.extender = setInterval(() => this.extendLeases(), options.ackWaitMs / 6);
    this.extender.unref();
    this.announcements = connection.subscribe(collectionQueueNames.waitingSubject, {
      callback: (error, message) => {
        if (!error && message.string() !== this.announcer) this.signal.next();
      },
    });
    void this.followReconnects();
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
    // While the consumer is being set up again there is nothing to take; `waiting` fires after.
    if (limit < 1 || this.settingUp) return [];
    // The server starts the ack wait when it delivers, which is after the pull is sent.
    const takenAt = performance.now();
    const reconnects = this.reconnects;
    const delivered = await pullNow(this.connection, this.target, limit, {
      expiresMs: this.options.pullExpiresMs,
      timeoutMs: this.options.requestTimeoutMs,
    });
    return delivered.map(({ text, ackSubject, delivery }) => {
      const lease: Lease = { key: text, delivery };
      this.held.hold(lease, ackSubject, takenAt, reconnects);
      return lease;
    });
  }

  async ack(lease: Lease): Promise<void> {
    await this.answer(lease, '+ACK');
  }

  async release(lease: Lease): Promise<void> {
    if (await this.answer(lease, '-NAK')) this.announce();
  }

  /** Stops listening to NATS for this queue; the connection is the caller's to close. */
  close(): void {
    this.closed = true;
    clearInterval(this.extender);
    this.announcements.unsubscribe();
    this.signal.complete();
  }

  /**
   * Sends the lease's answer and waits for the server to confirm it. A lease past its expiry, or
   * taken before a reconnect, is dropped unanswered, as the in-process queue drops an expired
   * one: NATS may have delivered it again, and an answer now would acknowledge or redeliver the
   * other holder's work (docs/design/cluster.md#leases). Returns whether the answer was sent.
   */
  private async answer(lease: Lease, verb: '+ACK' | '-NAK'): Promise<boolean> {
    const ackSubject = this.held.answerable(lease, performance.now(), this.reconnects);
    if (ackSubject === undefined) return false;
    await this.connection.request(ackSubject, verb, { timeout: this.options.requestTimeoutMs });
    this.held.forget(lease);
    return true;
  }

  /** A live node keeps its leases: an in-progress acknowledgement restarts NATS's ack wait. */
  private extendLeases(): void {
    if (this.held.size === 0 || this.connection.isClosed()) return;
    for (const ackSubject of this.held.extend(performance.now(), this.reconnects)) this.connection.publish(ackSubject, '+WPI');
  }

  private announce(): void {
    this.signal.next();
    this.connection.publish(collectionQueueNames.waitingSubject, this.announcer);
  }

  /**
   * After a reconnect the server may be a restarted one, whose consumer (kept in memory) is gone:
   * every node sets it up again, which is idempotent (docs/design/cluster.md#durability).
   */
  private async followReconnects(): Promise<void> {
    for await (const status of this.connection.status()) {
      if (this.closed) return;
      if (status.type !== 'reconnect') continue;
      this.reconnects++;
      this.settingUp ??= this.setUpAgain().finally(() => {
        this.settingUp = undefined;
      });
    }
  }

  private async setUpAgain(): Promise<void> {
    while (!this.closed && !this.connection.isClosed()) {
      try {
        await ensureWorkQueue(this.manager, this.options);
        this.health.clear(queueSetupHealth);
        this.signal.next();
        return;
      } catch (error) {
        this.health.report(
          queueSetupHealth,
          `could not set the collection queue up again: ${error instanceof Error ? error.message : String(error)}`,
        );
        await new Promise((resolve) => setTimeout(resolve, this.options.setupRetryMs));
      }
    }
  }
}

/** A subject token any key can take: NATS subjects split on '.' and reserve '*', '>' and spaces. */
function workSubject(key: string): string {
  return `${collectionQueueNames.workSubjectPrefix}.${Buffer.from(key).toString('base64url')}`;
}
