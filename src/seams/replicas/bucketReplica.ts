// What every replica of a KV bucket shares (docs/cluster.md#accounts-and-tokens): a watch from the
// last value of every key, so a node catches up in full, then follows every change into its LMDB.
import type { KV, KvWatchEntry } from '@nats-io/kv';
import { clusterDefaults } from '../../config.js';
import type { Logger } from '../../log.js';
import { WritesUnavailable } from '../webRecords/webStore.js';

export interface ReplicaOptions {
  log: Pick<Logger, 'warn' | 'error'>;
  /** Called after each change written to the LMDB. */
  onChanged: () => void;
}

/** `work`, whose failure (NATS out of reach, or a change not replicated in time) is a WritesUnavailable. */
export async function unlessUnavailable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new WritesUnavailable(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

export interface FollowedBucket {
  /**
   * Resolves once the entry of `revision` (or a later one) has been applied; rejects when that
   * takes longer than one NATS call may (the watch is cut off), so that no answer waits forever.
   */
  reached(revision: number): Promise<void>;
  /** Resolves once everything the bucket holds now has been applied (a delete tells no revision). */
  reachedNow(): Promise<void>;
  stop(): void;
}

/**
 * Applies entries in order, one at a time (deleted keys as their delete markers); the watch follows
 * reconnects by itself. Resolves once the entries there at the start are applied, so that a node
 * answers only once it holds what the cluster held. `apply` resolves whether it changed the LMDB;
 * `what` names the records in a failure's log line.
 */
export async function followBucket(
  bucket: KV,
  apply: (entry: KvWatchEntry) => Promise<boolean>,
  options: ReplicaOptions,
  what: string,
): Promise<FollowedBucket> {
  const pending = (await bucket.status()).values;
  const entries = await bucket.watch();
  let applied = 0;
  let revision = 0;
  const waiting = new Set<{ revision: number; resolve(): void }>();
  let caughtUp: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (caughtUp = resolve));
  if (pending === 0) caughtUp();
  void (async () => {
    for await (const entry of entries) {
      try {
        if (await apply(entry)) options.onChanged();
      } catch (error) {
        options.log.error({ err: error, key: entry.key }, `replicated ${what} not written`);
      }
      revision = Math.max(revision, entry.revision);
      for (const waiter of waiting) {
        if (waiter.revision > revision) continue;
        waiting.delete(waiter);
        waiter.resolve();
      }
      // An initial entry, or an update after them all: either way the start is behind us.
      if (++applied >= pending || entry.delta === 0) caughtUp();
    }
  })();
  await done;
  const reached = (wanted: number) =>
    wanted <= revision
      ? Promise.resolve()
      : new Promise<void>((resolve, reject) => {
          const waiter = {
            revision: wanted,
            resolve: () => {
              clearTimeout(timer);
              resolve();
            },
          };
          const timer = setTimeout(() => {
            waiting.delete(waiter);
            reject(new Error(`${what} ${wanted} not replicated within ${clusterDefaults.requestTimeoutMs} ms`));
          }, clusterDefaults.requestTimeoutMs);
          waiting.add(waiter);
        });
  return {
    reached,
    reachedNow: async () => reached((await bucket.status()).streamInfo.state.last_seq),
    stop: () => entries.stop(),
  };
}
