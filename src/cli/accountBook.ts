// Where `datapoints accounts|tokens` read and write: the data directory's LMDB, or with `--nats`
// (DATAPOINTS_NATS) the cluster's KV buckets, which every node replicates
// (docs/cluster.md#accounts-and-tokens, docs/dashboard.md#in-a-cluster). The commands are the same over both.
import { monthOf } from '../access/calendar.js';
import { AccountStore } from '../store/accountStore.js';
import { UsageStore } from '../seams/quotaLedger/usageStore.js';
import { WebStore } from '../seams/webRecords/webStore.js';
import type { AccountData } from './accountData.js';
import { dataDirSetting, withDataStore } from './dataStore.js';
import { setting } from './flags.js';
import { natsServersSetting } from './natsSetting.js';

export type { AccountBook, AccountData } from './accountData.js';

export const natsFlag = { nats: { type: 'string' } } as const;

/** Runs `work` on the cluster when --nats or DATAPOINTS_NATS is given, else on the data directory. */
export async function withAccountBook<T>(
  values: { data?: string | undefined; nats?: string | undefined },
  mode: 'existing' | 'create',
  work: (accountData: AccountData) => Promise<T> | T,
): Promise<T> {
  const nats = setting(values.nats, 'nats', 'DATAPOINTS_NATS');
  if (nats === undefined) {
    return withDataStore(dataDirSetting(values.data), mode, (dbs) => {
      const usage = new UsageStore(dbs);
      return work({
        book: new AccountStore(dbs),
        used: (account, now) => Promise.resolve(usage.counted(account, monthOf(now))),
        forget: () => Promise.resolve(),
        invites: new WebStore(dbs),
      });
    });
  }
  // The NATS client and the cluster's buckets are loaded only for the cluster: a command on a
  // data directory starts without them.
  const { withClusterAccountData } = await import('./clusterAccountData.js');
  return withClusterAccountData(natsServersSetting(nats), work);
}
