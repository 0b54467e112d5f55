// The leases a node holds and their in-progress acknowledgements, on a clock of our own
// (docs/design/cluster.md#leases).
import t from 'tap';
import type { Lease } from '../../src/seams/collection/ports.js';
import { HeldLeases } from '../../src/seams/collection/heldLeases.js';

const timing = { leaseMs: 60_000, ackWaitMs: 2_000, marginMs: 500 };
const lease = (key: string): Lease => ({ key, delivery: 1 });

t.test('held leases - a live holder extends each lease every third of the ack wait, up to the lease length', async (t) => {
  const held = new HeldLeases(timing);
  const a = lease('a');
  held.hold(a, 'ack.a', 0, 0);
  t.same(held.extend(600, 0), [], 'not yet a third of the ack wait');
  t.same(held.extend(700, 0), ['ack.a'], 'a third of it past: extended');
  t.same(held.extend(1_300, 0), [], 'extended 600 ms ago');
  t.equal(held.answerable(a, 2_199, 0), 'ack.a', 'answerable until ack wait less margin after the extension');
  // Ticks every sixth of the ack wait, as the queue does: each gap is a third to a half of it.
  let now = 700;
  let last = 700;
  const gaps = new Set<boolean>();
  while (held.size > 0) {
    now += timing.ackWaitMs / 6;
    if (held.extend(now, 0).length > 0) {
      gaps.add(now - last >= timing.ackWaitMs / 3 && now - last <= timing.ackWaitMs / 2);
      last = now;
    }
  }
  t.same([...gaps], [true], 'every gap between a third and a half of the ack wait');
  t.ok(last + timing.ackWaitMs <= timing.leaseMs, `the last extension keeps it within the lease length (${last} ms)`);
  t.ok(now >= timing.leaseMs - timing.ackWaitMs, `held until the lease length less one ack wait (${now} ms)`);
  t.equal(held.answerable(a, now, 0), undefined, 'past the lease length: void');
});

t.test('held leases - a lease not extended expires an ack wait less the margin after its take', async (t) => {
  const held = new HeldLeases(timing);
  const a = lease('a');
  held.hold(a, 'ack.a', 1_000, 0);
  t.equal(held.answerable(a, 2_499, 0), 'ack.a');
  t.equal(held.answerable(a, 2_500, 0), undefined, 'expired: never answered');
  t.equal(held.size, 0, 'and forgotten');
});

t.test('held leases - a lease taken before a reconnect is void and never extended', async (t) => {
  const held = new HeldLeases(timing);
  const a = lease('a');
  const b = lease('b');
  held.hold(a, 'ack.a', 0, 0);
  held.hold(b, 'ack.b', 0, 1);
  t.same(held.extend(700, 1), ['ack.b'], 'only the lease of the current connection life');
  t.equal(held.answerable(a, 800, 1), undefined);
  t.equal(held.answerable(b, 800, 1), 'ack.b');
  held.forget(b);
  t.equal(held.size, 0);
});

t.test('held leases - a lease length shorter than the ack wait is never extended', async (t) => {
  const held = new HeldLeases({ leaseMs: 1_000, ackWaitMs: 1_000, marginMs: 200 });
  const a = lease('a');
  held.hold(a, 'ack.a', 0, 0);
  t.same(held.extend(500, 0), []);
  t.equal(held.answerable(a, 799, 0), 'ack.a');
  t.equal(held.answerable(a, 800, 0), undefined);
});
