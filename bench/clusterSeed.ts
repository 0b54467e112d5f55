// Seeds a cluster as seed.ts seeds a data directory: the bench account and its token into its KV
// buckets, the resources into its resource log (bench/README.md#cluster, docs/design/cluster.md#resource-replication).
import { ClusterAccounts } from '../src/cluster/clusterAccounts.js';
import { closeNats, connectNats } from '../src/cluster/natsConnection.js';
import { defaultResourceLogOptions, JetStreamResourceLog } from '../src/seams/resourceLog/resourceLogStream.js';
import { provisionBenchAccount, seededChanges, type SeedPlan } from './seed.js';

/** Appends to the resource log in flight at once while seeding. */
const appendsInFlight = 64;

/**
 * The bench account and its token in the cluster's KV buckets, and the plan's resources appended
 * to its resource log, each as a creation (expected revision 0). Returns the bearer token.
 */
export async function seedCluster(natsUrl: string, plan: SeedPlan): Promise<string> {
  const connection = await connectNats({ servers: [natsUrl], name: 'datapoints bench seeder' });
  try {
    const now = Date.now();
    const secret = await provisionBenchAccount(await ClusterAccounts.open(connection), now);
    const log = await JetStreamResourceLog.open(connection, defaultResourceLogOptions());
    // One generator shared by every appender: each takes the next change when its last append is done.
    const changes = seededChanges(plan, now);
    const appender = async () => {
      for (const { key, change } of changes) {
        const appended = await log.append(key, 0, change);
        if (!appended.appended) throw new Error(`seeding ${key}: the resource log holds it already`);
      }
    };
    await Promise.all(Array.from({ length: appendsInFlight }, appender));
    return secret;
  } finally {
    await closeNats(connection);
  }
}
