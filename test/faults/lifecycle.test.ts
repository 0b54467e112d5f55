// Every fault mode of the emulator, on every registered platform and type at once, drives
// each resource to its defined state (docs/api.md#a-23, docs/api.md#a-24, docs/api.md#a-26), backs off exponentially with jitter,
// and recovers once the fault clears.
import t, { type Test } from 'tap';
import { retryDelay } from '../../machines/resource.js';
import type { FaultMode } from '../../src/emulator/world.js';
import { platforms } from '../../src/platforms/registry.js';
import type { SearchEntry } from '../helpers/searchBody.js';
import { eventually } from '../helpers/eventually.js';
import { faultWorld, label, shortPolicy, untilStatuses, type FaultWorld, type Reference } from './faultWorld.js';

const policy = { ...shortPolicy, historyLength: 10 };

/** The FAILED entries of a resource's history are spaced at least by the backoff's lower bound. */
function checkSpacing(t: Test, world: FaultWorld, reference: Reference, mode: FaultMode): void {
  const context = world.context(reference);
  const failedAt = context.history.filter((entry) => entry.event === 'FAILED').map((entry) => entry.at);
  t.ok(context.failures >= 2, `${label(reference)}: retried under ${mode} (${context.failures} failures)`);
  // The k-th failure of the run waits at least half of base * 2^(k-1) (equal jitter), capped.
  const firstFailure = context.failures - failedAt.length + 1;
  for (let index = 1; index < failedAt.length; index++) {
    const lowerBound = retryDelay(policy, firstFailure + index - 1, 0);
    t.ok(failedAt[index]! - failedAt[index - 1]! >= lowerBound, `${label(reference)}: retry ${index} waited >= ${lowerBound} ms`);
  }
}

/**
 * A resource that failed after it was available answers the datapoints of its last successful
 * collection, stamped with that collection's time (docs/api.md#a-23). That is the answer read just
 * before the fault, unless a collection already on its way then succeeded afterwards: a fault only
 * reaches the calls made after it was switched on.
 */
function keepsLastGood(t: Test, world: FaultWorld, reference: Reference, entry: SearchEntry, before: SearchEntry): void {
  const lastSuccess = new Date(world.context(reference).lastSuccessAt!).toISOString();
  const points = Object.values(entry.metrics ?? {});
  t.ok(
    points.length > 0 && points.every((point) => point.collected_at === lastSuccess),
    `${label(reference)}: keeps the datapoints of its last successful collection (${lastSuccess})`,
  );
  if (Object.values(before.metrics ?? {})[0]?.collected_at === lastSuccess) {
    t.same(entry.metrics, before.metrics, `${label(reference)}: exactly the datapoints answered before the fault`);
  }
}

/**
 * The delay before the next retry, read between two attempts (while a retry is in flight the
 * resource holds a lease instead): within [d/2, d] of the machine's backoff. Returns the jitter.
 */
async function nextRetryJitter(t: Test, world: FaultWorld, reference: Reference): Promise<number> {
  const read = () => {
    const context = world.context(reference);
    const lastFailure = context.history.filter((entry) => entry.event === 'FAILED').at(-1)!.at;
    return { failures: context.failures, delay: context.nextDueAt - lastFailure };
  };
  const { failures, delay } = await eventually(read, (now) => now.delay < policy.leaseMs, {
    intervalMs: 5,
    orFail: `${label(reference)} between two attempts`,
  });
  const upper = retryDelay(policy, failures, 1);
  t.ok(delay >= upper / 2 && delay <= upper, `${label(reference)}: next retry in ${delay} ms, within [${upper / 2}, ${upper}]`);
  return (delay - upper / 2) / (upper / 2);
}

const failureModes: FaultMode[] = ['error', 'timeout', 'malformed', 'slow'];

/**
 * These tests watch each resource's own backoff, so the platforms' breakers must not open:
 * a call the open breaker refuses is no attempt and leaves the backoff alone
 * (docs/platforms.md#circuit-breaker; test/streams/circuitBreaker.test.ts).
 */
const breakerNeverOpens = { failureThreshold: 1_000_000, cooldownMs: 100, maxCooldownMs: 200 };

for (const mode of failureModes) {
  t.test(`faults - ${mode} on every platform: new resources unavailable, known ones stale with old data, then recovery`, async (t) => {
    const world = await faultWorld(t, { breaker: breakerNeverOpens });
    const known = world.references(1);
    const fresh = world.references(2);
    await world.search(known);
    const before = await untilStatuses(world, known, ['available']);
    t.same(
      before.map((entry) => entry.status),
      known.map(() => 'available'),
      'every known resource collected before the fault',
    );

    for (const platform of platforms.keys()) await world.setFault(platform, mode);
    const lastGood = await world.search(known);
    await world.search(fresh);
    const faulted = await untilStatuses(world, [...known, ...fresh], ['stale', 'unavailable']);
    known.forEach((reference, index) => {
      const entry = faulted[index]!;
      t.equal(entry.status, 'stale', `${label(reference)}: stale under ${mode} (docs/api.md#a-23)`);
      keepsLastGood(t, world, reference, entry, lastGood[index]!);
    });
    fresh.forEach((reference, index) => {
      t.same(
        faulted[known.length + index],
        { ...reference, status: 'unavailable' },
        `${label(reference)}: unavailable, never not_found (docs/api.md#a-26)`,
      );
    });

    // Let a few retries happen, then check their spacing and that the jitter varies.
    await eventually(
      async () => fresh.map((reference) => world.context(reference).failures),
      (failures) => failures.every((count) => count >= 3),
    );
    for (const reference of fresh) checkSpacing(t, world, reference, mode);
    const jitters = await Promise.all(fresh.map((reference) => nextRetryJitter(t, world, reference)));
    t.ok(new Set(jitters.map((jitter) => jitter.toFixed(3))).size > 1, 'retry delays are jittered');

    for (const platform of platforms.keys()) await world.setFault(platform, 'none');
    const all = [...known, ...fresh];
    const recovered = await untilStatuses(world, all, ['available'], 8_000);
    recovered.forEach((entry, index) => {
      t.equal(entry.status, 'available', `${label(all[index]!)}: available again after the fault cleared`);
      t.ok(Object.keys(entry.metrics ?? {}).length > 0, `${label(all[index]!)}: has datapoints`);
    });
  });
}

t.test("faults - ratelimit on every platform: the platform's reset time is honoured, nothing is not_found, then recovery", async (t) => {
  const world = await faultWorld(t);
  const known = world.references(1);
  const fresh = world.references(2);
  await world.search(known);
  const lastGood = await untilStatuses(world, known, ['available']);
  for (const platform of platforms.keys()) await world.setFault(platform, 'ratelimit');
  await world.search(fresh);
  // Every platform has met its rate limit once a resource of it has failed.
  const hasFailed = (reference: Reference) => {
    try {
      return world.context(reference).failures > 0;
    } catch {
      return false; // a fresh resource has no state until its search is stored
    }
  };
  const failedOn = async () => new Set([...known, ...fresh].filter(hasFailed).map((reference) => reference.platform));
  await eventually(failedOn, (failed) => failed.size === platforms.size, 8_000);
  const limited = await world.search([...known, ...fresh]);
  // A collection refused by the rate limit fails the resource (22); one still queued behind the
  // platform's pause has not been attempted and keeps its state.
  known.forEach((reference, index) => {
    const entry = limited[index]!;
    t.ok(['stale', 'available'].includes(entry.status), `${label(reference)}: stale or still waiting (${entry.status})`);
    keepsLastGood(t, world, reference, entry, lastGood[index]!);
  });
  fresh.forEach((reference, index) => {
    t.ok(
      ['unavailable', 'pending'].includes(limited[known.length + index]!.status),
      `${label(reference)}: unavailable or waiting, never not_found`,
    );
  });
  // Every refused resource waits for the platform's reset, which lies beyond the backoff cap.
  const pausedUntil = new Map<string, number>();
  for (const reference of [...known, ...fresh]) {
    const context = world.context(reference);
    const failure = context.history.filter((entry) => entry.event === 'FAILED').at(-1);
    if (!failure || context.failures === 0) continue;
    t.ok(
      context.nextDueAt - failure.at > policy.retryCapMs,
      `${label(reference)}: retries at the platform's reset, ${context.nextDueAt - failure.at} ms after`,
    );
    pausedUntil.set(reference.platform, Math.max(pausedUntil.get(reference.platform) ?? 0, context.nextDueAt));
  }
  t.ok(pausedUntil.size > 0, 'rate limits were met');

  for (const platform of platforms.keys()) await world.setFault(platform, 'none');
  // Platforms whose reset lies minutes ahead (Graph API: estimated_time_to_regain_access) are left paused.
  const now = Date.now();
  const reachable = [...known, ...fresh].filter((reference) => (pausedUntil.get(reference.platform) ?? 0) < now + 4_000);
  for (const [platform, until] of pausedUntil)
    if (until >= now + 4_000) t.comment(`${platform} paused until its reset, ${until - now} ms ahead`);
  t.ok(reachable.length > 0, 'some platforms reset within the test');
  const recovered = await untilStatuses(world, reachable, ['available'], 8_000);
  for (const [index, entry] of recovered.entries()) {
    t.equal(entry.status, 'available', `${label(reachable[index]!)}: available after its platform's reset`);
  }
});

t.test('faults - notfound on every platform: resources become not_found with four fields, and are rechecked', async (t) => {
  const world = await faultWorld(t);
  const known = world.references(1);
  const fresh = world.references(2);
  await world.search(known);
  await untilStatuses(world, known, ['available']);
  for (const platform of platforms.keys()) await world.setFault(platform, 'notfound');
  await world.search(fresh);
  const gone = await untilStatuses(world, [...known, ...fresh], ['not_found']);
  [...known, ...fresh].forEach((reference, index) => {
    t.same(gone[index], { ...reference, status: 'not_found' }, `${label(reference)}: not_found, four fields only (docs/api.md#a-11)`);
  });
  for (const platform of platforms.keys()) await world.setFault(platform, 'none');
  const back = await untilStatuses(world, [...known, ...fresh], ['available']);
  [...known, ...fresh].forEach((reference, index) => {
    t.equal(back[index]!.status, 'available', `${label(reference)}: rechecked and available once the name exists (docs/api.md#a-25)`);
  });
});
