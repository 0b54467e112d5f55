// The account and token commands' data on a cluster (`--nats`): the KV buckets every node
// replicates (docs/cluster.md#accounts-and-tokens; docs/dashboard.md#in-a-cluster), on one
// connection for the command's life. Loaded only when a command is given --nats.
import { monthOf } from '../access/calendar.js';
import { accountKey, ClusterAccounts } from '../cluster/clusterAccounts.js';
import { ClusterDailyUsage } from '../cluster/clusterDailyUsage.js';
import { ClusterWeb } from '../seams/webRecords/clusterWeb.js';
import { KvQuotaLedger } from '../seams/quotaLedger/kvQuotaLedger.js';
import { reservedUnitsOf } from '../seams/reservedUnits/clusterReservedUnits.js';
import { closeNats, connectNats } from '../cluster/natsConnection.js';
import { clusterDefaults } from '../config.js';
import type { AccountData } from './accountData.js';
import { firstLine } from './dataStore.js';
import { CommandFailure } from '../usageError.js';

export async function withClusterAccountData<T>(servers: string[], work: (accountData: AccountData) => Promise<T> | T): Promise<T> {
  const connection = await connectNats({ servers, name: 'datapoints command' }).catch((error: unknown) => {
    throw new CommandFailure(`cannot reach NATS at ${servers.join(',')}: ${firstLine(error)}`);
  });
  try {
    const [book, ledger, days, web] = await Promise.all([
      ClusterAccounts.open(connection),
      KvQuotaLedger.open(connection, { replicas: 1, requestTimeoutMs: clusterDefaults.requestTimeoutMs }),
      ClusterDailyUsage.open(connection),
      ClusterWeb.open(connection),
    ]);
    return await work({
      book,
      // Units granted less what the live nodes hold in hand: the requests counted (docs/operations.md#usage-shown).
      used: async (account, now) => {
        const month = monthOf(now);
        const [granted, reservedUnits] = await Promise.all([ledger.read(account, month), reservedUnitsOf(connection, account, month, now)]);
        return Math.max(0, granted.granted - reservedUnits);
      },
      forget: async (account) => {
        await ledger.forget(account);
        await days.forget(account);
        await web.forget(accountKey(account), account);
      },
      invites: web,
    });
  } finally {
    await closeNats(connection);
  }
}
