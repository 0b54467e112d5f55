// The cluster's ledger of rate windows (docs/design/cluster.md#rate-limit-across-nodes):
// the quota ledger's NATS KV entries, in buckets by window length (docs/design/cluster.md#rate-limit-across-nodes).
import type { NatsConnection } from '@nats-io/transport-node';
import { type LedgerEntry, type QuotaLedger, type SwapResult, windowLengthOf } from './quotaLedger.js';
import { KvQuotaLedger } from './kvQuotaLedger.js';

export interface KvRateLedgerOptions {
  /** Each bucket and the longest window it holds, shortest first. */
  buckets: ReadonlyArray<{ bucket: string; longestWindowMs: number }>;
  /** How long past its longest window a bucket keeps an entry after its last write. */
  graceMs: number;
  /** Copies kept by a NATS cluster (1 for a single nats-server). */
  replicas: number;
  /** How long a KV call waits for its answer. */
  requestTimeoutMs: number;
}

export class KvRateLedger implements QuotaLedger {
  /** Creates the buckets, or opens them as another node created them. */
  static async open(connection: NatsConnection, options: KvRateLedgerOptions): Promise<KvRateLedger> {
    const tiers = await Promise.all(
      options.buckets.map(async ({ bucket, longestWindowMs }) => ({
        longestWindowMs,
        ledger: await KvQuotaLedger.open(connection, {
          bucket,
          maxAgeMs: longestWindowMs + options.graceMs,
          replicas: options.replicas,
          requestTimeoutMs: options.requestTimeoutMs,
        }),
      })),
    );
    return new KvRateLedger(tiers);
  }

  private constructor(private readonly tiers: ReadonlyArray<{ longestWindowMs: number; ledger: KvQuotaLedger }>) {}

  async read(account: string, period: string): Promise<LedgerEntry> {
    return this.tierOf(period).read(account, period);
  }

  async swap(account: string, period: string, revision: number, granted: number): Promise<SwapResult> {
    return this.tierOf(period).swap(account, period, revision, granted);
  }

  private tierOf(period: string): KvQuotaLedger {
    const length = windowLengthOf(period);
    const tier = this.tiers.find((candidate) => length <= candidate.longestWindowMs);
    if (tier === undefined) throw new Error(`rate window "${period}" is no window a rate bucket keeps`);
    return tier.ledger;
  }
}
