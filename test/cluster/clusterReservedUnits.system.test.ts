// Units in hand shared by cluster nodes (src/seams/reservedUnits/clusterReservedUnits.ts) pass the
// seam's contract, one node recording and another reading; and a node's entry counts only while
// it is written: one gone quiet for `staleMs` is a node gone, and a clean stop takes it out.
import t, { type Test } from 'tap';
import { closeNats, connectNats } from '../../src/cluster/natsConnection.js';
import { clusterDefaults } from '../../src/config.js';
import { ClusterReservedUnits } from '../../src/seams/reservedUnits/clusterReservedUnits.js';
import { reservedUnitsContract } from '../../src/seams/reservedUnits/reservedUnits.contract.js';
import { openDatabases } from '../../src/store/environment.js';
import { ReservedUnits } from '../../src/seams/reservedUnits/reservedUnits.js';
import { startNatsServer } from '../helpers/natsServer.js';
import { eventually, tempDataDir } from '../helpers/service.js';

const quiet = { error: () => undefined };

/** A node's record: its own LMDB, and the cluster's on a connection of its own. */
async function node(t: Test, natsUrl: string, name: string, now: () => number = Date.now) {
  const dbs = openDatabases(tempDataDir(t));
  const connection = await connectNats({ servers: [natsUrl], name });
  const local = new ReservedUnits(dbs);
  const units = await ClusterReservedUnits.open(connection, local, { node: name, log: quiet, now });
  t.teardown(async () => {
    await units.stop();
    await closeNats(connection);
    await dbs.root.close();
  });
  return units;
}

reservedUnitsContract(t, 'reserved units, cluster', async (t) => {
  const nats = await startNatsServer(t);
  const recorder = await node(t, nats.url, 'node a');
  const reader = await node(t, nats.url, 'node b');
  return {
    recorder,
    reader,
    shared: async (account, month, units) => {
      await eventually(
        () => Promise.resolve(reader.of(account, month)),
        (shown) => shown === units,
      );
    },
  };
});

t.test('reserved units, cluster - every live node is summed; a quiet one stops counting, a stopped one at once', async (t) => {
  const nats = await startNatsServer(t);
  // B's clock can be moved past A's last write, as if A had gone quiet that long.
  const clock = { skew: 0 };
  const a = await node(t, nats.url, 'node a');
  const b = await node(t, nats.url, 'node b', () => Date.now() + clock.skew);
  const c = await node(t, nats.url, 'node c');
  await a.replace([{ account: 'acme', month: '2026-11', units: 10 }]);
  await b.replace([{ account: 'acme', month: '2026-11', units: 5 }]);
  await c.replace([{ account: 'acme', month: '2026-11', units: 1 }]);
  const onB = () => Promise.resolve(b.of('acme', '2026-11'));
  t.equal(await eventually(onB, (units) => units === 16), 16, 'B takes away what all three hold');

  await c.stop();
  // Sooner than staleness could (C's last write is fresh for staleMs): the deletion did it.
  const beforeStale = clusterDefaults.reservedUnits.staleMs / 2;
  t.equal(await eventually(onB, (units) => units === 15, beforeStale), 15, "a clean stop takes C's entry out");

  clock.skew = clusterDefaults.reservedUnits.staleMs + 1_000;
  await b.replace([{ account: 'acme', month: '2026-11', units: 5 }]);
  t.equal(b.of('acme', '2026-11'), 5, "to B's clock A's entry is stale: A counts for nothing");
});
