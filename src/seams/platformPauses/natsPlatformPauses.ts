// Rate-limit pauses shared by a cluster's nodes
// (docs/design/cluster.md#upstream-budgets-cluster-wide): one KV entry per upstream (a
// platform, or a federated platform's server: `mastodon/mastodon.social`, a valid KV key as hosts
// are punycode) holding when its pause ends, only ever raised, watched by every node.
import { JetStreamApiCodes, JetStreamApiError, jetstream } from '@nats-io/jetstream';
import { Kvm, type KV, type KvWatchEntry } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Observable } from 'rxjs';
import { InProcessPlatformPauses, type PlatformPause, type PlatformPauses } from '../../../streams/platformPauses.js';
import type { Logger } from '../../log.js';
import type { UpstreamKey } from '../../../streams/upstreamKey.js';

export const pausesBucket = 'DATAPOINTS_PAUSES';

export interface NatsPlatformPausesOptions {
  /** How long a KV call waits for its answer. */
  requestTimeoutMs: number;
  now: () => number;
  log: Pick<Logger, 'warn'>;
}

export class NatsPlatformPauses implements PlatformPauses {
  /** Creates the bucket (or opens it as another node made it) and starts watching it. */
  static async open(connection: NatsConnection, options: NatsPlatformPausesOptions): Promise<NatsPlatformPauses> {
    const bucket = await new Kvm(jetstream(connection, { timeout: options.requestTimeoutMs })).create(pausesBucket, {
      history: 1,
      replicas: 1,
    });
    const pauses = new NatsPlatformPauses(bucket, new InProcessPlatformPauses(options.now), options.log);
    pauses.follow(await bucket.watch());
    return pauses;
  }

  private watch: { stop(): void } | undefined;

  private constructor(
    private readonly bucket: KV,
    /** What this node knows: its own pauses and the ones it heard. */
    private readonly board: InProcessPlatformPauses,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  get paused(): Observable<PlatformPause> {
    return this.board.paused;
  }

  announce(upstream: UpstreamKey, until: number): void {
    // This node pauses at once, NATS or not.
    this.board.announce(upstream, until);
    this.publish(upstream, until).catch((error: unknown) =>
      this.log.warn({ err: error, upstream }, 'platform pause not shared with the cluster; this node pauses alone'),
    );
  }

  stop(): void {
    this.watch?.stop();
  }

  /** Raises the upstream's entry to `until`, retried from the current entry when another node wrote first. */
  private async publish(upstream: UpstreamKey, until: number): Promise<void> {
    for (;;) {
      const entry = await this.bucket.get(upstream);
      // An entry that is not a time is overwritten.
      const current = entry?.operation === 'PUT' ? (untilOf(entry.string()) ?? 0) : undefined;
      if (current !== undefined && current >= until) return;
      try {
        if (current === undefined) await this.bucket.create(upstream, String(Math.ceil(until)));
        else await this.bucket.update(upstream, String(Math.ceil(until)), entry!.revision);
        return;
      } catch (error) {
        if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamWrongLastSequence)) throw error;
      }
    }
  }

  private follow(entries: AsyncIterable<KvWatchEntry> & { stop(): void }): void {
    this.watch = entries;
    void (async () => {
      for await (const entry of entries) {
        if (entry.operation !== 'PUT') continue;
        const until = untilOf(entry.string());
        if (until === undefined) this.log.warn({ key: entry.key }, 'platform pause entry is not a time; ignored');
        else this.board.announce(entry.key, until);
      }
    })();
  }
}

function untilOf(text: string): number | undefined {
  const until = Number(text);
  return Number.isSafeInteger(until) && until >= 0 ? until : undefined;
}
