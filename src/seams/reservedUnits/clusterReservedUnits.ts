// Units in hand across a cluster (docs/operations.md#usage-shown): each node publishes what it
// holds to one entry of a NATS KV bucket, and keeps in its LMDB the sum over every live node, so
// that every display on any node takes away what the whole cluster holds, not only itself.
import { jetstream } from '@nats-io/jetstream';
import { Kvm, type KV, type KvEntry } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { bucketKeys } from '../../cluster/bucketKeys.js';
import { clusterDefaults } from '../../config.js';
import type { Logger } from '../../log.js';
import type { ReservedCount, ReservedUnitsRecord } from './reservedUnits.js';

export const reservedUnitsBucket = 'DATAPOINTS_RESERVED_UNITS';

/** One node's entry: when it wrote it, and what it held then. */
interface NodeEntry {
  at: number;
  held: ReservedCount[];
}

export interface ClusterReservedUnitsOptions {
  /** This node's name, unique in the cluster (its entry's key is derived from it). */
  node: string;
  log: Pick<Logger, 'error'>;
  now?: () => number;
}

export class ClusterReservedUnits implements ReservedUnitsRecord {
  /** The last entry heard of every node, this one's included. */
  private readonly entries = new Map<string, NodeEntry>();
  private readonly key: string;
  private readonly now: () => number;
  private own: ReservedCount[] = [];
  private timer: NodeJS.Timeout | undefined;
  private watch: { stop(): void } | undefined;

  static async open(
    connection: NatsConnection,
    local: ReservedUnitsRecord,
    options: ClusterReservedUnitsOptions,
  ): Promise<ClusterReservedUnits> {
    const kv = await openBucket(connection);
    const units = new ClusterReservedUnits(kv, local, options);
    await units.follow();
    return units;
  }

  private constructor(
    private readonly kv: KV,
    /** This node's LMDB record, which its displays read: the cluster's sum goes there. */
    private readonly local: ReservedUnitsRecord,
    private readonly options: ClusterReservedUnitsOptions,
  ) {
    this.key = Buffer.from(options.node).toString('base64url');
    this.now = options.now ?? Date.now;
  }

  /** Publishes what this node holds, and records the cluster's sum locally. */
  async replace(held: readonly ReservedCount[]): Promise<void> {
    this.own = [...held];
    await this.publish();
  }

  of(account: string, month: string): number {
    return this.local.of(account, month);
  }

  /** Takes this node's entry out of the cluster's sum: after its last record, on a clean stop. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.watch?.stop();
    await this.kv.delete(this.key).catch(() => undefined);
  }

  /**
   * This node's entry, written again every half of `staleMs` even when nothing changed: the write
   * is its sign of life (an entry older than `staleMs` counts for nothing: its node is gone).
   */
  private async publish(): Promise<void> {
    const entry = { at: this.now(), held: this.own };
    this.entries.set(this.key, entry);
    await this.writeSum();
    try {
      await this.kv.put(this.key, JSON.stringify(entry));
    } catch (error) {
      // NATS out of reach: the other nodes count this one's last entry until it is stale.
      this.options.log.error({ err: error }, 'units in hand not shared with the cluster');
    }
  }

  /** Follows every other node's entry: the sum is written again when one changes, and at each beat for entries going stale. */
  private async follow(): Promise<void> {
    const watch = await this.kv.watch();
    this.watch = watch;
    void (async () => {
      for await (const entry of watch) {
        if (entry.key === this.key) continue;
        const read = readEntry(entry);
        if (read) this.entries.set(entry.key, read);
        else this.entries.delete(entry.key);
        await this.writeSum();
      }
    })();
    this.timer = setInterval(() => void this.publish(), clusterDefaults.reservedUnits.staleMs / 2);
    this.timer.unref();
  }

  private async writeSum(): Promise<void> {
    try {
      await this.local.replace(sumOfLive(this.entries, this.now() - clusterDefaults.reservedUnits.staleMs));
    } catch (error) {
      this.options.log.error({ err: error }, 'units in hand not recorded');
    }
  }
}

async function openBucket(connection: NatsConnection): Promise<KV> {
  return new Kvm(jetstream(connection, { timeout: clusterDefaults.requestTimeoutMs })).create(reservedUnitsBucket, {
    history: 1,
    replicas: 1,
    // A node killed -9 leaves its entry: the sum ignores it once stale, the bucket drops it later.
    ttl: clusterDefaults.reservedUnits.keptMs,
  });
}

/** The units in hand of every node whose entry was written at `freshFrom` or later, per account and month. */
function sumOfLive(entries: ReadonlyMap<string, NodeEntry>, freshFrom: number): ReservedCount[] {
  const sums = new Map<string, ReservedCount>();
  for (const { at, held } of entries.values()) {
    if (at < freshFrom) continue;
    for (const { account, month, units } of held) {
      const key = `${account}\n${month}`;
      const sum = sums.get(key);
      if (sum) sum.units += units;
      else sums.set(key, { account, month, units });
    }
  }
  return [...sums.values()];
}

function readEntry(entry: KvEntry): NodeEntry | undefined {
  if (entry.operation !== 'PUT') return undefined;
  try {
    const value = entry.json<NodeEntry>();
    return Number.isFinite(value.at) && Array.isArray(value.held) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The units in hand of `account` in `month` summed over every live node, read once (the `--nats` commands). */
export async function reservedUnitsOf(connection: NatsConnection, account: string, month: string, now = Date.now()): Promise<number> {
  const kv = await openBucket(connection);
  const entries = new Map<string, NodeEntry>();
  for (const key of await bucketKeys(kv)) {
    const entry = await kv.get(key);
    const read = entry && readEntry(entry);
    if (read) entries.set(key, read);
  }
  return sumOfLive(entries, now - clusterDefaults.reservedUnits.staleMs)
    .filter((held) => held.account === account && held.month === month)
    .reduce((sum, held) => sum + held.units, 0);
}
