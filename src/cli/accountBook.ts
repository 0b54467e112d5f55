// Where `datapoints accounts|tokens` read and write: the data directory's LMDB, or with `--nats`
// (DATAPOINTS_NATS) the cluster's KV buckets, which every node replicates (docs/cluster.md,
// "Accounts and tokens"; docs/dashboard.md, "In a cluster"). The commands are the same over both.
import { monthOf } from '../access/calendar.js';
import { AccountStore, type AccountRecord, type TokenRecord } from '../store/accountStore.js';
import { UsageStore } from '../store/usageStore.js';
import { type WebRecords, WebStore } from '../store/webStore.js';
import { dataDirSetting, withDataStore } from './dataStore.js';
import { setting } from './flags.js';
import { natsServersSetting } from './natsSetting.js';

type Answer<T> = T | Promise<T>;

/** What the account and token commands need of a store; AccountStore and ClusterAccounts both have it. */
export interface AccountBook {
  account(name: string): Answer<AccountRecord | undefined>;
  accounts(): Answer<AccountRecord[]>;
  token(id: string): Answer<TokenRecord | undefined>;
  tokenByDigest(digest: string): Answer<TokenRecord | undefined>;
  tokensOf(account: string): Answer<TokenRecord[]>;
  createAccount(account: AccountRecord): Promise<boolean>;
  updateAccount: AccountStore['updateAccount'];
  suspendAccount: AccountStore['suspendAccount'];
  resumeAccount: AccountStore['resumeAccount'];
  deleteAccount(name: string): Promise<number | undefined>;
  addToken(token: TokenRecord): Promise<void>;
  revokeToken(id: string, at: string): Promise<TokenRecord | undefined>;
}

export interface Books {
  book: AccountBook;
  /** Requests of the account counted (or reserved) in the month of `now`. */
  used(account: string, now: number): Promise<number>;
  /**
   * Removes what else is kept of a deleted account: its usage, daily counts and dashboard records
   * (the data directory's go with the account itself).
   */
  forget(account: string): Promise<void>;
  /** Where `accounts invite` writes its invite. */
  invites: Pick<WebRecords, 'addInvite'>;
}

export const natsFlag = { nats: { type: 'string' } } as const;

/** Runs `work` on the cluster when --nats or DATAPOINTS_NATS is given, else on the data directory. */
export async function withAccountBook<T>(
  values: { data?: string | undefined; nats?: string | undefined },
  mode: 'existing' | 'create',
  work: (books: Books) => Promise<T> | T,
): Promise<T> {
  const nats = setting(values.nats, 'nats', 'DATAPOINTS_NATS');
  if (nats === undefined) {
    return withDataStore(dataDirSetting(values.data), mode, (dbs) => {
      const usage = new UsageStore(dbs);
      return work({
        book: new AccountStore(dbs),
        used: (account, now) => Promise.resolve(usage.used(account, monthOf(now))),
        forget: () => Promise.resolve(),
        invites: new WebStore(dbs),
      });
    });
  }
  // The NATS client and the cluster's buckets are loaded only for the cluster: a command on a
  // data directory starts without them.
  const { withClusterBooks } = await import('./clusterBooks.js');
  return withClusterBooks(natsServersSetting(nats), work);
}
