// The resource side of one cluster node for a test: its own LMDB directory, its own connection to
// the test nats-server, a store that commits through the JetStream resource log and a replica that
// follows the log into it. Closed with the test, or earlier with `close` (a node that dies).
import type { Test } from 'tap';
import type { NatsConnection } from '@nats-io/transport-node';
import { closeNats, connectNats } from '../../src/cluster/natsConnection.js';
import { ResourceLogReplica } from '../../src/seams/replicas/resourceLogReplica.js';
import { defaultResourceLogOptions, JetStreamResourceLog } from '../../src/seams/resourceLog/resourceLogStream.js';
import { Health } from '../../src/health.js';
import { silentLogger } from '../../src/log.js';
import { openDatabases, type Databases } from '../../src/store/environment.js';
import { ResourceReplica } from '../../src/store/resourceReplica.js';
import { ResourceStore } from '../../src/store/resourceStore.js';
import { tempDataDir } from './service.js';

export const testReplicaOptions = { maxPendingWrites: 256, restartDelayMs: 200 };

export interface ClusterNode {
  name: string;
  dataDir: string;
  dbs: Databases;
  connection: NatsConnection;
  log: JetStreamResourceLog;
  store: ResourceStore;
  /** The store's commits through the log, and its writes of the log's changes. */
  replicaStore: ResourceReplica;
  health: Health;
  /** Starts following the log (a node under test may run without, to race on a stale replica). */
  startReplica(): Promise<ResourceLogReplica>;
  /** Stops the replica, closes the connection and the directory, and keeps the directory. */
  close(): Promise<void>;
}

export async function openClusterNode(t: Test, url: string, name: string, dataDir: string = tempDataDir(t)): Promise<ClusterNode> {
  const connection = await connectNats({ servers: [url], name });
  const dbs = openDatabases(dataDir);
  const health = new Health();
  let replica: ResourceLogReplica | undefined;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await replica?.stop();
    await closeNats(connection, 500);
    await dbs.root.close();
  };
  t.teardown(close);
  const log = await JetStreamResourceLog.open(connection, { ...defaultResourceLogOptions(), requestTimeoutMs: 2_000 });
  const store = new ResourceStore(dbs);
  const replicaStore = ResourceReplica.of(store, log);
  return {
    name,
    dataDir,
    dbs,
    connection,
    log,
    store,
    replicaStore,
    health,
    async startReplica() {
      replica = await ResourceLogReplica.start(log, replicaStore, testReplicaOptions, health, silentLogger);
      return replica;
    },
    close,
  };
}
