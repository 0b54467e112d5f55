// A node's replica of the cluster's accounts and tokens (docs/cluster.md, "Accounts and
// tokens"): it follows both KV buckets (bucketReplica.ts) and writes every change into the node's
// LMDB, where the authenticators read them, so that authenticating never waits on NATS. The
// buckets are small, and records it has already are not written again.
import type { KvWatchEntry } from '@nats-io/kv';
import type { AccountStore } from '../store/accountStore.js';
import { type FollowedBucket, followBucket, type ReplicaOptions } from './bucketReplica.js';
import { type ClusterAccounts, readAccount, readToken } from './clusterAccounts.js';

export type { ReplicaOptions } from './bucketReplica.js';

export class AccountReplica {
  /**
   * Starts both watches and resolves once the node holds what the cluster held when it started
   * (a node that answers before that could accept a token revoked while it was away).
   */
  static async start(cluster: ClusterAccounts, store: AccountStore, options: ReplicaOptions): Promise<AccountReplica> {
    const replica = new AccountReplica(store, options);
    replica.watches.push(
      ...(await Promise.all([
        followBucket(cluster.accountEntries, (entry) => replica.applyAccount(entry), options, 'account'),
        followBucket(cluster.tokenEntries, (entry) => replica.applyToken(entry), options, 'token'),
      ])),
    );
    return replica;
  }

  private readonly watches: FollowedBucket[] = [];

  private constructor(
    private readonly store: AccountStore,
    private readonly options: ReplicaOptions,
  ) {}

  stop(): void {
    for (const watch of this.watches) watch.stop();
  }
  private applyAccount(entry: KvWatchEntry): Promise<boolean> {
    if (entry.operation !== 'PUT') {
      return this.store.deleteAccount(Buffer.from(entry.key, 'base64url').toString()).then((removed) => removed !== undefined);
    }
    const account = readAccount(entry);
    if (account) return this.store.replicateAccount(account);
    this.options.log.warn({ key: entry.key }, 'cluster account entry is not an account; ignored');
    return Promise.resolve(false);
  }

  private applyToken(entry: KvWatchEntry): Promise<boolean> {
    if (entry.operation !== 'PUT') return this.store.removeToken(entry.key);
    const token = readToken(entry);
    if (token) return this.store.replicateToken(token);
    this.options.log.warn({ key: entry.key }, 'cluster token entry is not a token; ignored');
    return Promise.resolve(false);
  }
}
