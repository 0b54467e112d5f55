// Requests per day in a cluster (docs/dashboard.md#in-a-cluster): the quota ledger that counts
// per day passes the ledger contract; units granted and given back on two nodes are counted per
// account and day exactly as one node's LMDB counts them, and every node's replica shows the
// days and the month's sum; a swap whose replaced count was never seen is reported, not guessed.
import type { Test } from 'tap';
import t from 'tap';
import { reserveUnits, returnUnits } from '../../src/seams/quotaLedger/reservations.js';
import { ClusterDailyUsage } from '../../src/cluster/clusterDailyUsage.js';
import { replicateDailyUsage } from '../../src/seams/replicas/dailyUsageReplica.js';
import { DayCountingLedger } from '../../src/seams/quotaLedger/dayCountingLedger.js';
import { KvQuotaLedger } from '../../src/seams/quotaLedger/kvQuotaLedger.js';
import { closeNats, connectNats } from '../../src/cluster/natsConnection.js';
import { DailyUsage } from '../../src/store/dailyUsage.js';
import { openDatabases, type Databases } from '../../src/store/environment.js';
import { UsageStore } from '../../src/seams/quotaLedger/usageStore.js';
import { quotaLedgerContract } from '../../src/seams/quotaLedger/quotaLedger.contract.js';
import { eventually } from '../helpers/eventually.js';
import { startNatsServer } from '../helpers/natsServer.js';
import { tempDataDir } from '../helpers/service.js';

interface DayNode {
  ledger: DayCountingLedger;
  days: ClusterDailyUsage;
  kv: KvQuotaLedger;
  dbs: Databases;
  errors: unknown[];
}

async function openNode(t: Test, url: string, now: () => number): Promise<DayNode> {
  const connection = await connectNats({ servers: [url], name: 'daily usage test' });
  t.teardown(() => closeNats(connection, 500));
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  const errors: unknown[] = [];
  const log = { warn: () => t.fail('no entry is broken'), error: (fields: unknown) => void errors.push(fields) };
  const days = await ClusterDailyUsage.open(connection);
  const kv = await KvQuotaLedger.open(connection, { replicas: 1, requestTimeoutMs: 2_000 });
  const replica = await replicateDailyUsage(days, new DailyUsage(dbs), { log, onChanged: () => undefined }, now);
  t.teardown(() => replica.stop());
  return { ledger: new DayCountingLedger(kv, days, log, now), days, kv, dbs, errors };
}

quotaLedgerContract(t, 'NATS KV ledger counting per day', async (t) => {
  const nats = await startNatsServer(t);
  return (await openNode(t, nats.url, Date.now)).ledger;
});

const month = '2026-11';
const at = (day: string) => Date.parse(`${day}T12:00:00Z`);

t.test('two nodes count per day as one node does, and both replicas show it', async (t) => {
  const nats = await startNatsServer(t);
  let now = at('2026-11-25');
  const clock = () => now;
  const [a, b] = [await openNode(t, nats.url, clock), await openNode(t, nats.url, clock)];
  const aloneDbs = openDatabases(tempDataDir(t));
  t.teardown(() => aloneDbs.root.close());
  const alone = new UsageStore(aloneDbs, clock);

  // The same grants and give-backs, spread over the two nodes and all on the one node.
  const steps: Array<[day: string, node: DayNode, units: number]> = [
    ['2026-11-25', a, 10],
    ['2026-11-25', b, 5],
    ['2026-11-26', a, 20],
    ['2026-11-26', b, 3],
    ['2026-11-26', b, -25],
  ];
  for (const [day, node, units] of steps) {
    now = at(day);
    if (units > 0) {
      await reserveUnits(node.ledger, 'acme', month, units, null);
      await reserveUnits(alone, 'acme', month, units, null);
    } else {
      await returnUnits(node.ledger, 'acme', month, -units);
      await returnUnits(alone, 'acme', month, -units);
    }
    await node.ledger.flush(5_000);
  }
  const expected = new DailyUsage(aloneDbs).dailyUsage('acme', '2026-11-24', '2026-11-26');
  t.same(expected, [
    { day: '2026-11-24', requests: 0 },
    { day: '2026-11-25', requests: 13 },
    { day: '2026-11-26', requests: 0 },
  ]);
  for (const node of [a, b]) {
    const shown = () => JSON.stringify(new DailyUsage(node.dbs).dailyUsage('acme', '2026-11-24', '2026-11-26'));
    await eventually(shown, (days) => days === JSON.stringify(expected), { timeoutMs: 1_000, intervalMs: 5 });
    t.same(new DailyUsage(node.dbs).dailyUsage('acme', '2026-11-24', '2026-11-26'), expected, 'the days, as one node counts them');
    t.equal(new UsageStore(node.dbs).used('acme', month), 13, "the month's count is the sum of its days");
    t.same(node.errors, []);
  }
  t.equal((await a.kv.read('acme', month)).granted, 13, 'and the ledger agrees');

  await reserveUnits(a.ledger, 'beta', month, 2, null);
  await a.ledger.flush(5_000);
  await a.days.forget('acme');
  await eventually(
    () => new DailyUsage(b.dbs).dailyUsage('acme', '2026-11-25', '2026-11-25')[0]!.requests,
    (requests) => requests === 0,
    { timeoutMs: 1_000, intervalMs: 5 },
  );
  t.same(
    new DailyUsage(b.dbs).dailyUsage('acme', '2026-11-25', '2026-11-26'),
    [
      { day: '2026-11-25', requests: 0 },
      { day: '2026-11-26', requests: 0 },
    ],
    'forgetting an account removes its days from every replica',
  );
  t.equal(new UsageStore(b.dbs).used('acme', month), 0, 'and its month');
  t.equal(new DailyUsage(b.dbs).dailyUsage('beta', '2026-11-26', '2026-11-26')[0]!.requests, 2, "another account's stay");
});

t.test('a swap from a count the ledger never saw is reported, not counted', async (t) => {
  const nats = await startNatsServer(t);
  const a = await openNode(t, nats.url, Date.now);
  const b = await openNode(t, nats.url, Date.now);
  await reserveUnits(a.ledger, 'acme', month, 4, null);
  const entry = await a.kv.read('acme', month);
  const result = await b.ledger.swap('acme', month, entry.revision, entry.granted + 1);
  t.equal(result.swapped, true, 'the swap itself is made');
  t.equal(b.errors.length, 1, 'reported');
});
