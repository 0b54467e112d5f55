// The NATS KV quota ledger and the ledger of rate windows against the QuotaLedger contract, and
// what only a ledger shared by several nodes and kept by a nats-server must do.
import t, { type Test } from 'tap';
import { reserveUnits } from '../../src/seams/quotaLedger/reservations.js';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { windowPeriod } from '../../src/seams/quotaLedger/quotaLedger.js';
import { clusterDefaults } from '../../src/config.js';
import { KvQuotaLedger, KvQuotaLedgerError, quotaBucket } from '../../src/seams/quotaLedger/kvQuotaLedger.js';
import { KvRateLedger } from '../../src/seams/quotaLedger/kvRateLedger.js';
import { closeNats, connectNats } from '../../src/cluster/natsConnection.js';
import { quotaLedgerContract } from '../../src/seams/quotaLedger/quotaLedger.contract.js';
import { eventually } from '../helpers/eventually.js';
import { startNatsServer, untilReconnected, untilStored } from '../helpers/natsServer.js';

const options = { replicas: 1, requestTimeoutMs: 2_000 };

async function openLedger(t: Test, url: string, name: string) {
  const connection = await connectNats({ servers: [url], name });
  t.teardown(() => closeNats(connection, 500));
  return { connection, ledger: await KvQuotaLedger.open(connection, options) };
}

quotaLedgerContract(t, 'NATS KV quota ledger', async (t) => {
  const server = await startNatsServer(t);
  return (await openLedger(t, server.url, 'contract')).ledger;
});

const rateOptions = { buckets: clusterDefaults.rateBuckets, graceMs: clusterDefaults.rateEntryGraceMs, ...options };

async function openRateLedger(t: Test, url: string, name: string) {
  const connection = await connectNats({ servers: [url], name });
  t.teardown(() => closeNats(connection, 500));
  return { connection, ledger: await KvRateLedger.open(connection, rateOptions) };
}

const minuteWindow = windowPeriod(60_000, Date.UTC(2026, 10, 23, 12));
quotaLedgerContract(
  t,
  'NATS KV ledger of rate windows',
  async (t) => {
    const server = await startNatsServer(t);
    return (await openRateLedger(t, server.url, 'contract')).ledger;
  },
  [minuteWindow, windowPeriod(60_000, Date.UTC(2026, 10, 23, 12, 1))],
);

t.test('NATS KV ledger of rate windows - each window goes to the bucket of its length, whose entries expire', async (t) => {
  const server = await startNatsServer(t);
  const { connection, ledger } = await openRateLedger(t, server.url, 'node');
  const windows = [1_000, 60_000, 61_000, 3_600_000, 86_400_000, 31 * 86_400_000].map((length) => windowPeriod(length, 0));
  for (const window of windows) await reserveUnits(ledger, 'acme', window, 1, 50);
  const manager = await jetstreamManager(connection);
  const held: Record<string, [number, number]> = {};
  for (const { bucket, longestWindowMs } of clusterDefaults.rateBuckets) {
    const info = await manager.streams.info(`KV_${bucket}`);
    held[bucket] = [info.state.messages, info.config.max_age / 1e6];
    t.equal(
      info.config.max_age / 1e6,
      longestWindowMs + clusterDefaults.rateEntryGraceMs,
      `${bucket} keeps an entry its longest window and the grace`,
    );
  }
  t.same(
    Object.values(held).map(([messages]) => messages),
    [2, 2, 1, 1],
    'up to 1 min, up to 1 h, up to 1 day, up to 31 days',
  );
  await t.rejects(reserveUnits(ledger, 'acme', windowPeriod(32 * 86_400_000, 0), 1, 50), /no window a rate bucket keeps/);
});

t.test("NATS KV ledger of rate windows - an entry is gone once its bucket's age passed, and its window can start again", async (t) => {
  const server = await startNatsServer(t);
  const connection = await connectNats({ servers: [server.url], name: 'node' });
  t.teardown(() => closeNats(connection, 500));
  const ledger = await KvRateLedger.open(connection, {
    ...rateOptions,
    buckets: [{ bucket: 'TEST_RATE', longestWindowMs: 1_000 }],
    graceMs: 0,
  });
  const window = windowPeriod(1_000, 0);
  t.same(await reserveUnits(ledger, 'acme', window, 3, 5), { units: 3, total: 3 });
  const since = performance.now();
  await eventually(
    () => ledger.read('acme', window),
    (entry) => entry.granted === 0,
    { intervalMs: 100, orFail: 'the entry expiring' },
  );
  t.comment(`expired ${Math.round(performance.now() - since)} ms after its write (max_age 1000 ms)`);
  t.same(await reserveUnits(ledger, 'acme', window, 3, 5), { units: 3, total: 3 }, 'a write after the expiry creates the entry afresh');
});

t.test('NATS KV quota ledger - reservations from three nodes at once never take a month past its quota', async (t) => {
  const server = await startNatsServer(t);
  const nodes = await Promise.all([1, 2, 3].map((n) => openLedger(t, server.url, `node ${n}`)));
  const reservations = await Promise.all(
    Array.from({ length: 90 }, (_, n) => reserveUnits(nodes[n % nodes.length]!.ledger, 'acme corp', '2026-11', 3, 200)),
  );
  t.equal(
    reservations.reduce((sum, reservation) => sum + reservation.units, 0),
    200,
    'every unit granted once',
  );
  t.same(await nodes[2]!.ledger.read('acme corp', '2026-11').then((entry) => entry.granted), 200);
});

t.test('NATS KV quota ledger - the units granted survive nats-server killed -9 and restarted on its store', async (t) => {
  const server = await startNatsServer(t);
  const { connection, ledger } = await openLedger(t, server.url, 'node');
  await reserveUnits(ledger, 'acme', '2026-11', 40, 500);
  await reserveUnits(ledger, 'acme', '2026-11', 2, 500);
  // The kill comes once the last write (42 units, after the headers) is in the bucket's block file.
  await untilStored(server, `KV_${quotaBucket}`, '\r\n\r\n42');
  const reconnected = untilReconnected(connection);
  await server.kill();
  await server.restart();
  await reconnected;
  t.equal((await ledger.read('acme', '2026-11')).granted, 42);
  t.same(await reserveUnits(ledger, 'acme', '2026-11', 10, 500), { units: 10, total: 52 }, 'and it takes revision-checked writes again');
});

t.test('NATS KV quota ledger - an entry that is not a count of units is an error naming it', async (t) => {
  const server = await startNatsServer(t);
  const { connection, ledger } = await openLedger(t, server.url, 'node');
  const bucket = await new Kvm(jetstream(connection)).open(quotaBucket);
  await bucket.put(`${Buffer.from('acme').toString('base64url')}.2026-11`, 'lots');
  await t.rejects(
    ledger.read('acme', '2026-11'),
    new KvQuotaLedgerError('DATAPOINTS_QUOTA entry YWNtZQ.2026-11 holds "lots", not a count of units'),
  );
});
