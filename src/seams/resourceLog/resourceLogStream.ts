// The resource log on JetStream (docs/design/cluster.md#resource-replication): one subject
// per resource keeping its last change, sequence numbers as revisions, appends on condition.
import {
  DiscardPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { DueEventType } from '../../../machines/resource.js';
import { addOrUpdateStream } from '../../cluster/addOrUpdateStream.js';
import { clusterDefaults, replicaDefaults } from '../../config.js';
import type { AppendResult, LoggedChange } from '../../store/resourceReplica.js';
import type { ResourceChange } from '../../store/resourceStore.js';
import { isTransitionCause, type TransitionCause } from '../../store/transitionHistory.js';
import type { LogFollower, ResourceLog } from './resourceLog.js';

/** Names every node of a cluster shares (docs/design/cluster.md#streams-consumers-subjects). */
export const resourceLogNames = {
  stream: 'DATAPOINTS_RESOURCES',
  /** One subject per resource: `datapoints.resource.<base64url of the key>`. */
  subjectPrefix: 'datapoints.resource',
} as const;

const dueEvents: ReadonlySet<string> = new Set<DueEventType>(['REFRESH_DUE', 'RETRY_DUE', 'RECHECK_DUE']);

export interface JetStreamResourceLogOptions {
  /** Copies of the stream kept by a NATS cluster (1 for a single nats-server). */
  replicas: number;
  /** How long a JetStream call waits for its answer. */
  requestTimeoutMs: number;
  /**
   * How long each pull of a follower lasts. The client library also waits this long between
   * attempts to find its consumer again after a reconnect, so it bounds how long a follower stays
   * stalled after nats-server restarts (docs/design/cluster.md#resource-replication).
   */
  followPullMs: number;
}

/** The log's options from the service's defaults, on one nats-server. */
export function defaultResourceLogOptions(): JetStreamResourceLogOptions {
  return { replicas: 1, requestTimeoutMs: clusterDefaults.requestTimeoutMs, followPullMs: replicaDefaults.followPullMs };
}

export class ResourceLogError extends Error {}

export class JetStreamResourceLog implements ResourceLog {
  /** Creates the stream, or brings the one another node created to these settings. */
  static async open(connection: NatsConnection, options: JetStreamResourceLogOptions): Promise<JetStreamResourceLog> {
    const manager = await jetstreamManager(connection, { timeout: options.requestTimeoutMs });
    await ensureStream(manager, options.replicas);
    return new JetStreamResourceLog(manager, jetstream(connection, { timeout: options.requestTimeoutMs }), options.followPullMs);
  }

  private constructor(
    private readonly manager: JetStreamManager,
    private readonly client: JetStreamClient,
    private readonly followPullMs: number,
  ) {}

  async append(key: string, expectedRevision: number, change: ResourceChange): Promise<AppendResult> {
    try {
      const ack = await this.client.publish(subjectOf(key), encode(change), { expect: { lastSubjectSequence: expectedRevision } });
      return { appended: true, revision: ack.seq };
    } catch (error) {
      if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamWrongLastSequence)) throw error;
      return { appended: false, current: await this.latest(key) };
    }
  }

  async latest(key: string): Promise<LoggedChange | undefined> {
    // One request: the stream's last message on the key's subject.
    const message = await this.manager.streams.getMessage(resourceLogNames.stream, { last_by_subj: subjectOf(key) });
    return message ? decode(message.seq, message.subject, message.string()) : undefined;
  }

  async head(): Promise<number> {
    return (await this.manager.streams.info(resourceLogNames.stream)).state.last_seq;
  }

  /**
   * An ordered consumer from just after `afterRevision`: nats-server keeps no state for it, and
   * the client creates it again from the last sequence it delivered when it misses heartbeats or
   * finds it gone after a reconnect (nats-server 2.9 loses it when it restarts).
   */
  async follow(afterRevision: number): Promise<LogFollower> {
    const consumer = await this.client.consumers.get(resourceLogNames.stream, { opt_start_seq: afterRevision + 1 });
    const messages = await consumer.consume({ expires: this.followPullMs });
    async function* changes(): AsyncGenerator<LoggedChange> {
      for await (const message of messages) yield decode(message.seq, message.subject, message.string());
    }
    const iterable = changes();
    return {
      [Symbol.asyncIterator]: () => iterable,
      stop: () => messages.stop(),
    };
  }
}

async function ensureStream(manager: JetStreamManager, replicas: number): Promise<void> {
  const stream = {
    name: resourceLogNames.stream,
    subjects: [`${resourceLogNames.subjectPrefix}.>`],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    num_replicas: replicas,
    // A resource's older messages are dropped as its new one is stored: the stream is a last-value log.
    max_msgs_per_subject: 1,
    discard: DiscardPolicy.Old,
  };
  await addOrUpdateStream(manager, stream);
}

/** A subject token any key can take: NATS subjects split on '.' and reserve '*', '>' and spaces. */
function subjectOf(key: string): string {
  return `${resourceLogNames.subjectPrefix}.${Buffer.from(key).toString('base64url')}`;
}

function encode({ resource, view, event, cause }: ResourceChange): string {
  return JSON.stringify({ resource, view: [view.entryEnd, view.refreshAfter], event, cause });
}

/** A message of the stream as a change, or a ResourceLogError naming it when it is not one. */
function decode(revision: number, subject: string, text: string): LoggedChange {
  const key = Buffer.from(subject.slice(resourceLogNames.subjectPrefix.length + 1), 'base64url').toString();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (isEncodedChange(parsed)) {
    const { resource, view, event, cause } = parsed;
    return { key, revision, resource, view: { entryEnd: view[0], refreshAfter: view[1] }, event, cause };
  }
  throw new ResourceLogError(`resource log message ${revision} (${key}) is not a resource change: ${text.slice(0, 200)}`);
}

interface EncodedChange {
  resource: ResourceChange['resource'];
  view: [string, number];
  event: DueEventType;
  /** Absent when the committing node kept no transition history. */
  cause?: TransitionCause;
}

/**
 * Checks what every reader of a change relies on: a status, a context with a due time, a view
 * and a due event. The rest of the snapshot is the machine's, written by a node of the cluster.
 */
function isEncodedChange(value: unknown): value is EncodedChange {
  if (!isRecord(value)) return false;
  const { resource, view, event, cause } = value;
  if (!isRecord(resource) || !isRecord(resource.context)) return false;
  if (cause !== undefined && !isTransitionCause(cause)) return false;
  return (
    typeof resource.value === 'string' &&
    typeof resource.context.nextDueAt === 'number' &&
    Array.isArray(view) &&
    view.length === 2 &&
    typeof view[0] === 'string' &&
    typeof view[1] === 'number' &&
    typeof event === 'string' &&
    dueEvents.has(event)
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
