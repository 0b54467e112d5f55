// The NATS KV quota ledger against the QuotaLedger contract, and what only a ledger shared by
// several nodes and kept by a nats-server must do.
import t, { type Test } from 'tap';
import { reserveUnits } from '../../src/access/quotaLedger.js';
import { jetstream } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { KvQuotaLedger, KvQuotaLedgerError, quotaBucket } from '../../src/cluster/kvQuotaLedger.js';
import { closeNats, connectNats } from '../../src/cluster/natsConnection.js';
import { quotaLedgerContract } from '../access/quotaLedger.contract.js';
import { startNatsServer, untilReconnected } from '../helpers/natsServer.js';

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
  // As with every stream, a write confirmed in the last milliseconds before a kill may be lost
  // (docs/cluster.md, "Durability"); this one had time to reach the OS.
  await new Promise((resolve) => setTimeout(resolve, 300));
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
