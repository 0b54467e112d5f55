// A platform that fails or hangs must cost nothing outside itself: other platforms keep
// collecting (docs/api.md#a-21). The hanging calls here hang far longer than each test waits, so
// "did not wait for them" is a fact about the order of events, not a timing that a slow machine
// could break. That searches are answered meanwhile is test/faults/hangingSearches.test.ts.
import t from 'tap';
import { platforms } from '../../src/platforms/registry.js';
import { eventually } from '../helpers/service.js';
import { faultWorld, label, untilStatuses, type Reference } from './faultWorld.js';

/** How long a call to a hanging platform takes to time out: longer than any wait below. */
const hangMs = 120_000;

for (const healthy of platforms.keys()) {
  t.test(`faults - ${healthy} keeps collecting while every other platform hangs under load`, async (t) => {
    const world = await faultWorld(t, {
      collectTimeoutMs: hangMs,
      policy: { freshForMs: 3_600_000 },
      // A breaker that never opens: isolation must not depend on it.
      breaker: { failureThreshold: 1_000_000, cooldownMs: 100, maxCooldownMs: 200 },
    });
    for (const platform of platforms.keys()) if (platform !== healthy) await world.setFault(platform, 'timeout');
    // Flood the hanging platforms with new resources, so their calls pile up in flight.
    const flood: Reference[] = [];
    for (let index = 0; index < 40; index++)
      flood.push(...world.references(100 + index).filter((reference) => reference.platform !== healthy));
    await world.search(flood);
    const hangingCalls = await eventually(
      async () => world.ts.service.platformStatus.snapshot().platforms.filter((status) => status.platform !== healthy),
      (statuses) => statuses.every((status) => status.budget.inFlight > 0),
    );
    for (const status of hangingCalls) t.ok(status.budget.inFlight > 0, `${status.platform}: calls hang in flight`);

    const probe = world.references(7).filter((reference) => reference.platform === healthy);
    await world.search(probe);
    const collected = await untilStatuses(world, probe, ['available'], 30_000);
    for (const [index, entry] of collected.entries()) {
      t.equal(entry.status, 'available', `${label(probe[index]!)}: collected while the others hang`);
    }
    // Had it waited behind the hanging calls, it would have been collected after they timed out.
    const hanging = await world.search(flood.slice(0, 10));
    t.ok(
      hanging.every((entry) => entry.status === 'pending'),
      `every call to the other platforms still hangs: ${hanging.map((entry) => entry.status).join(', ')}`,
    );
  });
}
