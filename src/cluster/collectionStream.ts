// The stream and consumer behind the cluster's collection queue (docs/design/cluster.md#streams-consumers-subjects).
import { AckPolicy, DeliverPolicy, DiscardPolicy, RetentionPolicy, StorageType, type JetStreamManager } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { addOrUpdateStream } from './addOrUpdateStream.js';

/** Names every node of a cluster shares (docs/design/cluster.md#streams-consumers-subjects). */
export const collectionQueueNames = {
  stream: 'DATAPOINTS_COLLECT',
  consumer: 'collectors',
  /** One subject per resource: `datapoints.collect.work.<base64url of the key>`. */
  workSubjectPrefix: 'datapoints.collect.work',
  /** Core NATS, not stored: a node announces here that work is waiting. */
  waitingSubject: 'datapoints.collect.waiting',
} as const;

/** The JetStream error a publish gets when its subject holds a message already (max per subject 1, discard new). */
export const subjectHoldsAMessage = 10_077;

export interface WorkQueueSettings {
  /** The consumer's ack wait: how long a delivery may go unanswered (without an in-progress acknowledgement) before it is delivered again. */
  ackWaitMs: number;
  /** Deliveries unanswered at once across the cluster. */
  maxLeasesOut: number;
  /** Copies of the stream kept by a NATS cluster (1 for a single nats-server). */
  replicas: number;
}

/** Creates the stream and its consumer, or brings them to `settings`. */
export async function ensureWorkQueue(manager: JetStreamManager, settings: WorkQueueSettings): Promise<void> {
  const stream = {
    name: collectionQueueNames.stream,
    subjects: [`${collectionQueueNames.workSubjectPrefix}.>`],
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
    num_replicas: settings.replicas,
    max_msgs_per_subject: 1,
    discard: DiscardPolicy.New,
    discard_new_per_subject: true,
  };
  await addOrUpdateStream(manager, stream);
  // nats-server 2.9 creates a durable consumer, or updates it when it exists with other settings.
  // Its state lives in memory on purpose (docs/design/cluster.md#durability): 2.9 can come back from a
  // kill -9 with a stored consumer state that no longer matches the stream, leaving messages no
  // one will ever be given. A consumer in memory is gone after any restart; the nodes create it
  // again and it delivers everything still in the stream from the start.
  await manager.consumers.add(collectionQueueNames.stream, {
    durable_name: collectionQueueNames.consumer,
    ack_policy: AckPolicy.Explicit,
    ack_wait: nanos(settings.ackWaitMs),
    deliver_policy: DeliverPolicy.All,
    max_deliver: -1,
    max_ack_pending: settings.maxLeasesOut,
    mem_storage: true,
  });
}
