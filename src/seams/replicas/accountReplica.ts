// A node's replica of the cluster's accounts and tokens (docs/cluster.md#accounts-and-tokens): it follows both KV buckets (bucketReplica.ts) and writes every change into the node's
// LMDB, where the authenticators read them, so that authenticating never waits on NATS. The
// buckets are small, and records it has already are not written again.
import type { KvWatchEntry } from '@nats-io/kv';
import type { AccountChangeWrites, AccountChanges, AccountRecord, AccountStore, TokenRecord } from '../../store/accountStore.js';
import { type FollowedBucket, followBucket, type ReplicaOptions, unlessUnavailable } from './bucketReplica.js';
import { type ClusterAccounts, readAccount, readToken } from '../../cluster/clusterAccounts.js';

export type { ReplicaOptions } from './bucketReplica.js';

/**
 * The replica is also how the dashboard and console of a node change accounts and tokens
 * (docs/dashboard.md#in-a-cluster): each change is written to the cluster's buckets and
 * resolves once this node's LMDB has it, so that the page answered next shows it.
 */
export class AccountReplica implements AccountChangeWrites {
  /**
   * Starts both watches and resolves once the node holds what the cluster held when it started
   * (a node that answers before that could accept a token revoked while it was away).
   */
  static async start(cluster: ClusterAccounts, store: AccountStore, options: ReplicaOptions): Promise<AccountReplica> {
    const replica = new AccountReplica(cluster, store, options);
    const [accounts, tokens] = await Promise.all([
      followBucket(cluster.accountEntries, (entry) => replica.applyAccount(entry), options, 'account'),
      followBucket(cluster.tokenEntries, (entry) => replica.applyToken(entry), options, 'token'),
    ]);
    replica.followed = { accounts, tokens };
    return replica;
  }

  /** Set by `start` before the replica is handed out. */
  private followed: Record<'accounts' | 'tokens', FollowedBucket> | undefined;

  private constructor(
    private readonly cluster: ClusterAccounts,
    private readonly store: AccountStore,
    private readonly options: ReplicaOptions,
  ) {}

  createAccount(account: AccountRecord): Promise<boolean> {
    return this.applied('accounts', this.cluster.createAccount(account));
  }

  updateAccount(name: string, changes: AccountChanges): Promise<AccountRecord | undefined> {
    return this.applied('accounts', this.cluster.updateAccount(name, changes));
  }

  suspendAccount(name: string, at: string, reason: string | null): Promise<AccountRecord | undefined> {
    return this.applied('accounts', this.cluster.suspendAccount(name, at, reason));
  }

  resumeAccount(name: string): Promise<AccountRecord | undefined> {
    return this.applied('accounts', this.cluster.resumeAccount(name));
  }

  addToken(token: TokenRecord): Promise<void> {
    return this.applied('tokens', this.cluster.addToken(token));
  }

  revokeToken(id: string, at: string): Promise<TokenRecord | undefined> {
    return this.applied('tokens', this.cluster.revokeToken(id, at));
  }

  /** `change`'s answer, once this node's replica holds everything the bucket held after it. */
  private applied<T>(bucket: 'accounts' | 'tokens', change: Promise<T>): Promise<T> {
    return unlessUnavailable(async () => {
      const answer = await change;
      await this.followed![bucket].reachedNow();
      return answer;
    });
  }

  stop(): void {
    this.followed?.accounts.stop();
    this.followed?.tokens.stop();
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
