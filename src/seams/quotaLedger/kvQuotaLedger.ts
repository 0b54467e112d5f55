// The cluster's quota ledger (docs/design/cluster.md#quota-ledger): one NATS KV entry per
// account and period, swapped by revision; on buckets of their own it keeps rate windows and
// upstream call budgets.
import { JetStreamApiCodes, JetStreamApiError, jetstream } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { LedgerEntry, QuotaLedger, SwapResult } from './quotaLedger.js';

export const quotaBucket = 'DATAPOINTS_QUOTA';

export interface KvQuotaLedgerOptions {
  /** Copies kept by a NATS cluster (1 for a single nats-server). */
  replicas: number;
  /** How long a KV call waits for its answer. */
  requestTimeoutMs: number;
  /** The bucket; `DATAPOINTS_QUOTA` when absent. */
  bucket?: string;
  /**
   * Entries older than this are dropped by NATS (for periods that are soon over); kept for good
   * when absent. Applies when this node creates the bucket: an existing bucket is opened as it is.
   */
  maxAgeMs?: number;
}

export class KvQuotaLedgerError extends Error {}

export class KvQuotaLedger implements QuotaLedger {
  /** Creates the bucket, or opens it as another node created it. */
  static async open(connection: NatsConnection, options: KvQuotaLedgerOptions): Promise<KvQuotaLedger> {
    const name = options.bucket ?? quotaBucket;
    const bucket = await new Kvm(jetstream(connection, { timeout: options.requestTimeoutMs })).create(name, {
      history: 1,
      replicas: options.replicas,
      ...(options.maxAgeMs === undefined ? {} : { ttl: options.maxAgeMs }),
    });
    return new KvQuotaLedger(bucket, name);
  }

  private constructor(
    private readonly bucket: KV,
    private readonly name: string,
  ) {}

  async read(account: string, period: string): Promise<LedgerEntry> {
    const key = entryKey(account, period);
    const entry = await this.bucket.get(key);
    if (entry?.operation !== 'PUT') return { granted: 0, revision: entry?.revision ?? 0 };
    const granted = Number(entry.string());
    if (!Number.isSafeInteger(granted) || granted < 0) {
      throw new KvQuotaLedgerError(`${this.name} entry ${key} holds "${entry.string()}", not a count of units`);
    }
    return { granted, revision: entry.revision };
  }

  /** Removes every period of `account`, so that a later account of the same name starts afresh. */
  async forget(account: string): Promise<void> {
    for await (const key of await this.bucket.keys(`${Buffer.from(account).toString('base64url')}.>`)) await this.bucket.purge(key);
  }

  async swap(account: string, period: string, revision: number, granted: number): Promise<SwapResult> {
    const key = entryKey(account, period);
    try {
      const written =
        revision === 0 ? await this.bucket.create(key, String(granted)) : await this.bucket.update(key, String(granted), revision);
      return { swapped: true, entry: { granted, revision: written } };
    } catch (error) {
      if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamWrongLastSequence)) throw error;
      return { swapped: false, current: await this.read(account, period) };
    }
  }
}

/**
 * KV keys allow letters, digits and `-/_=.`, with `.` separating tokens: the account name goes in
 * as base64url, the period ('YYYY-MM', or a rate window's `<length>.<start>`) as it is.
 */
function entryKey(account: string, period: string): string {
  return `${Buffer.from(account).toString('base64url')}.${period}`;
}
