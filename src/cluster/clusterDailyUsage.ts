// Requests per account and UTC day in a cluster (docs/dashboard.md#in-a-cluster): one NATS KV entry
// per account and day, as the single node's per-day counts mean them (src/store/dailyUsage.ts).
import { jetstream } from '@nats-io/jetstream';
import { Kvm, type KV, type KvEntry } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { clusterDefaults, limits } from '../config.js';
import { countedDay } from '../store/dailyUsage.js';
import { accountKey, isRevisionRefusal } from './clusterAccounts.js';

export const dailyUsageBucket = 'DATAPOINTS_DAILY_USAGE';
const dayMs = 86_400_000;

/**
 * The units granted on each day by every node, changed with revision-checked writes so that nodes
 * adding at once all land. Every node follows the bucket into its LMDB (dailyUsageReplica.ts).
 */
export class ClusterDailyUsage {
  static async open(connection: NatsConnection): Promise<ClusterDailyUsage> {
    const bucket = await new Kvm(jetstream(connection, { timeout: clusterDefaults.requestTimeoutMs })).create(dailyUsageBucket, {
      history: 1,
      replicas: 1,
      // A day is written on that day (or just after, by a give-back): kept as long as the chart shows it.
      ttl: (limits.dailyUsageDays + 1) * dayMs,
    });
    return new ClusterDailyUsage(bucket);
  }

  /** Key: the account name in base64url, the month and the day of the month (`YWNtZQ.2026-11.26`); value: the count. */
  private constructor(readonly entries: KV) {}

  /**
   * `units` more (or, negative, fewer) for `account` in `month` ('YYYY-MM'), at `now`: a
   * reservation adds its units on the day it lands on, a give-back takes them from the latest days
   * of the month.
   */
  async record(account: string, month: string, units: number, now: number): Promise<void> {
    if (units === 0) return;
    const day = countedDay(month, now);
    if (units > 0) {
      await this.change(account, day, (count) => count + units);
      return;
    }
    let owed = -units;
    for (let date = Number(day.slice(8)); owed > 0 && date >= 1; date--) {
      owed -= await this.change(account, `${month}-${String(date).padStart(2, '0')}`, (count) => Math.max(0, count - owed));
    }
  }

  /** Removes every day of `account`, so that a later account of the same name starts afresh. */
  async forget(account: string): Promise<void> {
    for await (const key of await this.entries.keys(`${accountKey(account)}.>`)) await this.entries.purge(key);
  }

  /** Writes `change` of the day's count, again from the top when another node came between; resolves how much the count fell. */
  private async change(account: string, day: string, change: (count: number) => number): Promise<number> {
    const key = dayKey(account, day);
    for (;;) {
      const entry = await this.entries.get(key);
      const count = readCount(entry) ?? 0;
      const next = change(count);
      if (next === count) return 0;
      try {
        if (entry === null) await this.entries.create(key, String(next));
        else await this.entries.update(key, String(next), entry.revision);
        return count - next;
      } catch (error) {
        if (!isRevisionRefusal(error)) throw error;
      }
    }
  }
}

function dayKey(account: string, day: string): string {
  return `${accountKey(account)}.${day.slice(0, 7)}.${day.slice(8)}`;
}

/** The account and day ('YYYY-MM-DD') of a key; undefined when it is not one of this bucket's. */
export function keyDay(key: string): { account: string; day: string } | undefined {
  const match = /^([A-Za-z0-9_-]*)\.(\d{4}-\d{2})\.(\d{2})$/.exec(key);
  return match ? { account: Buffer.from(match[1]!, 'base64url').toString(), day: `${match[2]}-${match[3]}` } : undefined;
}

/** The count an entry holds; undefined for a deleted entry or one that is not a count. */
export function readCount(entry: KvEntry | null): number | undefined {
  if (entry?.operation !== 'PUT') return undefined;
  const count = Number(entry.string());
  return Number.isSafeInteger(count) && count >= 0 ? count : undefined;
}
