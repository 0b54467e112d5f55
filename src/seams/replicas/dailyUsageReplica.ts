// A node's replica of the cluster's requests per day (docs/dashboard.md#in-a-cluster): it
// follows the KV bucket (bucketReplica.ts) into the node's LMDB, where the usage page reads the
// chart and the month's count, so that the page never waits on NATS.
import type { KvWatchEntry } from '@nats-io/kv';
import type { DailyUsage } from '../../store/dailyUsage.js';
import { type FollowedBucket, followBucket, type ReplicaOptions } from './bucketReplica.js';
import { type ClusterDailyUsage, keyDay, readCount } from '../../cluster/clusterDailyUsage.js';

export async function replicateDailyUsage(
  cluster: ClusterDailyUsage,
  days: DailyUsage,
  options: ReplicaOptions,
  now: () => number = Date.now,
): Promise<FollowedBucket> {
  const apply = (entry: KvWatchEntry): Promise<boolean> => {
    const named = keyDay(entry.key);
    const count = readCount(entry);
    if (!named || (entry.operation === 'PUT' && count === undefined)) {
      options.log.warn({ key: entry.key }, 'cluster daily usage entry is not a count; ignored');
      return Promise.resolve(false);
    }
    return days.replicate(named.account, named.day, count, now());
  };
  return followBucket(cluster.entries, apply, options, 'daily usage');
}
