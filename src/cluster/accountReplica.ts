// A node's replica of the cluster's accounts and tokens (docs/cluster.md, "Accounts and
// tokens"): it watches both KV buckets and writes every change into the node's LMDB, where the
// authenticators read them, so that authenticating never waits on NATS. A watch starts with the
// last value of every key (deleted ones included, as their delete markers), so a node that
// starts, restarts or was cut off catches up in full; the buckets are small, and records it has
// already are not written again. The watch follows reconnects by itself.
import type { KV, KvWatchEntry } from '@nats-io/kv';
import type { Logger } from '../log.js';
import type { AccountStore } from '../store/accountStore.js';
import { type ClusterAccounts, readAccount, readToken } from './clusterAccounts.js';

export interface ReplicaOptions {
  log: Pick<Logger, 'warn' | 'error'>;
  /** Called after each change written to the LMDB. */
  onChanged: () => void;
}

export class AccountReplica {
  /**
   * Starts both watches and resolves once the node holds what the cluster held when it started
   * (a node that answers before that could accept a token revoked while it was away).
   */
  static async start(cluster: ClusterAccounts, store: AccountStore, options: ReplicaOptions): Promise<AccountReplica> {
    const replica = new AccountReplica(store, options);
    await Promise.all([
      replica.follow(cluster.accountEntries, (entry) => replica.applyAccount(entry)),
      replica.follow(cluster.tokenEntries, (entry) => replica.applyToken(entry)),
    ]);
    return replica;
  }

  private readonly watches: Array<{ stop(): void }> = [];

  private constructor(
    private readonly store: AccountStore,
    private readonly options: ReplicaOptions,
  ) {}

  stop(): void {
    for (const watch of this.watches) watch.stop();
  }

  /** Applies entries in order, one at a time; resolves once the entries there at the start are applied. */
  private async follow(bucket: KV, apply: (entry: KvWatchEntry) => Promise<boolean>): Promise<void> {
    const pending = (await bucket.status()).values;
    const entries = await bucket.watch();
    this.watches.push(entries);
    let applied = 0;
    let caughtUp: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (caughtUp = resolve));
    if (pending === 0) caughtUp();
    void (async () => {
      for await (const entry of entries) {
        try {
          if (await apply(entry)) this.options.onChanged();
        } catch (error) {
          this.options.log.error({ err: error, key: entry.key }, 'replicated account or token not written');
        }
        // An initial entry, or an update after them all: either way the start is behind us.
        if (++applied >= pending || entry.delta === 0) caughtUp();
      }
    })();
    return done;
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
