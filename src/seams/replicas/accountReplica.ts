// A node's replica of the cluster's accounts and tokens (docs/cluster.md#accounts-and-tokens): it follows both KV buckets (bucketReplica.ts) and writes every change into the node's
// LMDB, where the authenticators read them, so that authenticating a token the node holds never
// waits on NATS (one it does not: `catchUp`). The buckets are small, and records it has already
// are not written again.
import type { KvWatchEntry } from '@nats-io/kv';
import type {
  AccountChangeWrites,
  AccountChanges,
  AccountRecord,
  AccountStore,
  AccountsCatchUp,
  TokenRecord,
} from '../../store/accountStore.js';
import { type FollowedBucket, followBucket, type ReplicaOptions, unlessUnavailable } from './bucketReplica.js';
import { type ClusterAccounts, readAccount, readToken } from '../../cluster/clusterAccounts.js';

export type { ReplicaOptions } from './bucketReplica.js';

/**
 * The replica is also how the dashboard and console of a node change accounts and tokens
 * (docs/dashboard.md#in-a-cluster): each change is written to the cluster's buckets and
 * resolves once this node's LMDB has it, so that the page answered next shows it.
 */
export class AccountReplica implements AccountChangeWrites, AccountsCatchUp {
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
  /** Settles when the look at the buckets under way ends; the next look, which every call made meanwhile waits for. */
  private looking: Promise<void> | undefined;
  private nextLook: Promise<void> | undefined;

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

  /**
   * Resolves once this node holds everything both buckets held when it was called
   * (docs/design/cluster.md#a-token-new-to-a-node). A node asked about many unknown
   * tokens at once looks at the buckets once at a time: a call made while a look is under way
   * waits for the next one, which starts when that ends, so no call is answered by a look older
   * than itself, and a flood of invented tokens costs NATS one look (a status request per bucket)
   * per round trip.
   */
  catchUp(): Promise<void> {
    if (this.looking === undefined) return this.look();
    this.nextLook ??= this.looking.then(() => {
      this.nextLook = undefined;
      return this.look();
    });
    return this.nextLook;
  }

  /** One look at both buckets; `looking` (which never rejects) is set until it ends. */
  private look(): Promise<void> {
    const followed = this.followed!;
    const look = Promise.all([followed.accounts.reachedNow(), followed.tokens.reachedNow()]).then(() => undefined);
    this.looking = look
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        this.looking = undefined;
      });
    return look;
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
