// A platform that fails or hangs must cost nothing outside itself: searches keep their pace
// (they never wait for collection, docs/api.md#a-21) and other platforms keep collecting.
import t from 'tap';
import { Pool } from 'undici';
import { collectionDefaults, defaultPolicy } from '../../src/config.js';
import { platforms } from '../../src/platforms/registry.js';
import { searchPath } from '../helpers/service.js';
import { faultWorld, label, untilStatuses, type FaultWorld, type Reference } from './faultWorld.js';

/** Searches per second over keep-alive; each names nine known resources and one new to the service. */
async function searchRate(world: FaultWorld, round: number, searches: number): Promise<number> {
  const known = world.references(0).slice(0, 9);
  const pool = new Pool(world.ts.url, { connections: 16 });
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < searches) {
      const index = next++;
      const fresh = world.references(round * 10_000 + index);
      const resources = [...known, fresh[index % fresh.length]!];
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
  const rate = searches / ((performance.now() - started) / 1000);
  await pool.close();
  return rate;
}

t.test('faults - searches keep their pace while every platform hangs', async (t) => {
  // The service's own retry and breaker defaults: the load is searches, not retries.
  const world = await faultWorld(t, {
    collectTimeoutMs: 2_000,
    policy: { freshForMs: defaultPolicy.freshForMs, retryBaseMs: defaultPolicy.retryBaseMs, retryCapMs: defaultPolicy.retryCapMs },
    breaker: collectionDefaults.breaker,
  });
  await searchRate(world, 1, 200);
  const healthy = await searchRate(world, 2, 2_000);
  for (const platform of platforms.keys()) await world.setFault(platform, 'timeout');
  const faulted = await searchRate(world, 3, 2_000);
  const ratio = faulted / healthy;
  t.comment(
    `search throughput: healthy ${healthy.toFixed(0)}/s, every platform hanging ${faulted.toFixed(0)}/s, ratio ${ratio.toFixed(2)}`,
  );
  t.ok(ratio > 0.5, `throughput with every platform hanging is ${ratio.toFixed(2)} of healthy`);
});

for (const healthy of platforms.keys()) {
  t.test(`faults - ${healthy} keeps collecting while every other platform hangs under load`, async (t) => {
    const world = await faultWorld(t, {
      collectTimeoutMs: 2_000,
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
    const started = Date.now();
    await world.search(probe);
    const collected = await untilStatuses(world, probe, ['available'], 1_800);
    const elapsed = Date.now() - started;
    for (const [index, entry] of collected.entries()) {
      t.equal(entry.status, 'available', `${label(probe[index]!)}: collected while the others hang`);
    }
    t.ok(elapsed < 1_000, `${healthy} collected in ${elapsed} ms, well inside the others' 2 s timeout`);
  });
}
