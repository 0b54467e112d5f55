// A platform that fails or hangs must cost nothing outside itself: searches never wait for
// collection (docs/api.md#a-21) and other platforms keep collecting. The hanging calls here hang
// far longer than each test waits, so "did not wait for them" is a fact about the order of
// events, not a timing that a slow machine could break; how fast searches stay while platforms
// hang is measured in bench/ (search-10-warm+hanging).
import t from 'tap';
import { Pool } from 'undici';
import { collectionDefaults, defaultPolicy } from '../../src/config.js';
import { platforms } from '../../src/platforms/registry.js';
import { searchPath } from '../helpers/service.js';
import { faultWorld, label, untilStatuses, type FaultWorld, type Reference } from './faultWorld.js';

/** How long a call to a hanging platform takes to time out: longer than any wait below. */
const hangMs = 120_000;

/** Searches over keep-alive, each naming nine known resources and one new to the service; returns the new ones. */
async function searchMany(world: FaultWorld, round: number, searches: number): Promise<Reference[]> {
  const known = world.references(0).slice(0, 9);
  const pool = new Pool(world.ts.url, { connections: 16 });
  const named: Reference[] = [];
  let next = 0;
  const worker = async () => {
    while (next < searches) {
      const index = next++;
      const fresh = world.references(round * 10_000 + index);
      const resources = [...known, fresh[index % fresh.length]!];
      named.push(resources[9]!);
      const response = await pool.request({
        path: searchPath,
        method: 'POST',
        headers: { authorization: `Bearer ${world.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ resources }),
      });
      await response.body.text();
      if (response.statusCode !== 200) throw new Error(`search answered ${response.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  await pool.close();
  return named;
}

t.test('faults - searches are answered while every platform hangs, without waiting for a single call', async (t) => {
  // The service's own retry and breaker defaults: the load is searches, not retries.
  const world = await faultWorld(t, {
    collectTimeoutMs: hangMs,
    policy: { freshForMs: defaultPolicy.freshForMs, retryBaseMs: defaultPolicy.retryBaseMs, retryCapMs: defaultPolicy.retryCapMs },
    breaker: collectionDefaults.breaker,
  });
  await searchMany(world, 1, 200);
  await untilStatuses(world, world.references(0).slice(0, 9), ['available']);
  for (const platform of platforms.keys()) await world.setFault(platform, 'timeout');
  // Every search answered 200 (searchMany throws otherwise) and each named a resource new to the
  // service, whose collection hangs: none of those collections has ended when the searches have.
  const named = await searchMany(world, 3, 2_000);
  const sample = named.filter((_, index) => index % 200 === 0);
  const entries = await world.search(sample);
  for (const [index, entry] of entries.entries()) {
    t.equal(entry.status, 'pending', `${label(sample[index]!)}: its collection still hangs, and no search waited for it`);
  }
});

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
    await new Promise((resolve) => setTimeout(resolve, 100));

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
