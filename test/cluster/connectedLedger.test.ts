// Reservations while NATS is unreachable (docs/cluster.md#nats-outage), in process: a busy
// account spends the units it holds, then every request is refused at once, never after a wait
// on a ledger call that cannot be answered.
import t from 'tap';
import { ConnectedLedger, ConnectionGate, followConnection } from '../../src/seams/quotaLedger/connectedLedger.js';
import { account, clusterOn, decided } from '../access/admissionHarness.js';
import { MemoryLedger } from '../access/memoryLedger.js';

t.test('connection gate - a call under way fails at the disconnect, new ones at once until the reconnect', async (t) => {
  const gate = new ConnectionGate();
  const never = gate.run(() => new Promise<number>(() => undefined));
  gate.disconnected();
  await t.rejects(never, { name: 'Error', message: 'NATS is not connected' });
  await t.rejects(
    gate.run(() => Promise.resolve(1)),
    { message: 'NATS is not connected' },
  );
  gate.reconnected();
  t.equal(await gate.run(() => Promise.resolve(2)), 2);
});

t.test('connection gate - follows the connection statuses', async (t) => {
  const gate = new ConnectionGate();
  async function* statuses() {
    yield { type: 'disconnect' };
    t.equal(gate.connected, false);
    yield { type: 'reconnecting' };
    t.equal(gate.connected, false);
    yield { type: 'reconnect' };
  }
  await followConnection(statuses(), gate);
  t.equal(gate.connected, true);
});

t.test('connected ledger - a busy account spends its units in hand, then is refused at once', async (t) => {
  const quota = new MemoryLedger();
  const rate = new MemoryLedger();
  const gate = new ConnectionGate();
  const { clock, admissions } = clusterOn(new ConnectedLedger(quota, gate), new ConnectedLedger(rate, gate), 1, 1);
  const [thread] = admissions[0]!;
  const busy = account('busy', 1_000_000, { limit: 1_000_000, windowMs: 3_600_000 });
  for (let request = 0; request < 300; request++) {
    clock.now += 1;
    t.equal((await decided(thread!.admit(busy, clock.now))).kind, 'admitted');
  }
  // NATS goes away with the next block's reservation on its way: it would never be answered.
  quota.hold = true;
  rate.hold = true;
  const spent = quota.writes.length;
  let reservedUnits = 0;
  for (;;) {
    clock.now += 1;
    const admission = thread!.admit(busy, clock.now);
    if (admission.kind !== 'admitted') {
      if (reservedUnits === 0) t.fail('a busy account holds units');
      gate.disconnected();
      await t.rejects(decided(admission), /could not be written/, 'refused at the disconnect, not after a wait');
      break;
    }
    reservedUnits++;
  }
  t.ok(reservedUnits > 1, `${reservedUnits} admitted from the units in hand`);
  for (let request = 0; request < 5; request++) {
    clock.now += 1;
    await t.rejects(decided(thread!.admit(busy, clock.now)), /could not be written/, 'refused at once while disconnected');
  }
  t.equal(quota.writes.length, spent, 'nothing was written meanwhile');

  quota.hold = false;
  rate.hold = false;
  gate.reconnected();
  clock.now += 1;
  t.equal((await decided(thread!.admit(busy, clock.now))).kind, 'admitted', 'admitted again once NATS is back');
});
