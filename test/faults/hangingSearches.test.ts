// A platform that hangs must cost searches nothing: they never wait for collection
// (docs/api.md#a-21), so every search is answered while every platform hangs. The hanging calls
// hang far longer than the test waits, so "did not wait for them" is a fact about the order of
// events, not a timing that a slow machine could break; how fast searches stay while platforms
// hang is measured in bench/ (search-10-warm+hanging). Apart from test/faults/isolation.test.ts,
// whose tests start a service each, so that the two run side by side.
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
