// A call the open circuit breaker refuses is no attempt (docs/platforms.md#circuit-breaker):
// through the real service, every platform fails long enough for its breaker to open and then
// refuse its resources many times over, far more often than the failures that opened it. The
// known resources' failure counts are their failed attempts alone, so their backoff does not grow
// with those refusals, and once the fault clears each is collected again within its own backoff
// of the breaker's successful trial. Were refusals counted as failures, its backoff would double
// with each of them and its recovery would wait for it (minutes with the default retry base).
import t from 'tap';
import { retryDelay } from '../../machines/resource.js';
import type { PlatformStatus } from '../../src/operations/platformStatus.js';
import { platforms } from '../../src/platforms/registry.js';
import { eventually } from '../helpers/eventually.js';
import { faultWorld, label, shortPolicy, untilStatuses, type FaultWorld, type Reference } from './faultWorld.js';

/**
 * A retry base of seconds, generous for a loaded machine against a resource refused by the open
 * breaker, which is due again at the breaker's next trial. As in the defaults, the breaker's
 * pause grows beyond the retry base, and a known resource comes due during the fault.
 */
const policy = { retryBaseMs: 2_000, retryCapMs: 120_000, freshForMs: 3_000, historyLength: 20 };
const breaker = { failureThreshold: 5, cooldownMs: 500, maxCooldownMs: 4_000 };
/** Refusals each platform's open breaker makes before the fault clears: many times the failures that opened it. */
const refusalsDuringFault = 5 * breaker.failureThreshold;
/**
 * The longest the fault may take to reach them once every breaker is open: eight retry bases.
 * Counted as failures, refusals that many would have brought each known resource to three
 * failures or more (a backoff of at least 2 s, 4 s, 8 s...), and its next attempt that far ahead.
 */
const faultAfterOpenMs = 8 * policy.retryBaseMs;

/**
 * The platforms with one breaker: a federated platform's servers have a breaker each and the
 * platform none that opens (docs/platforms.md#each-server-its-own-upstream; test/faults/federatedServers.test.ts).
 */
const withOneBreaker = [...platforms.values()].filter((platform) => !platform.hostsNamedByCallers).map((platform) => platform.code);
function breakers(world: FaultWorld): Map<string, PlatformStatus> {
  const statuses = world.ts.service.platformStatus.snapshot().platforms;
  return new Map(statuses.filter((status) => withOneBreaker.includes(status.platform)).map((status) => [status.platform, status]));
}

const referencesOf = (world: FaultWorld, index: number) =>
  world.references(index).filter((reference) => withOneBreaker.some((platform) => platform === reference.platform));

/** Polls the platforms' status until `done` holds for every platform, or `timeoutMs` passed; returns the last. */
const untilEveryBreaker = (world: FaultWorld, done: (status: PlatformStatus) => boolean, timeoutMs: number) =>
  eventually(
    () => breakers(world),
    (statuses) => withOneBreaker.every((platform) => done(statuses.get(platform)!)),
    { timeoutMs, intervalMs: 25 },
  );

const collections = (status: PlatformStatus, kind: 'deferred' | 'failed') =>
  status.perMinute.reduce((sum, minute) => sum + minute[kind], 0);

t.test('faults - refusals of the open breaker are no attempts: known resources recover within their own backoff', async (t) => {
  const world = await faultWorld(t, { policy, breaker });
  // Keys sort by identifier within a type and the due index takes equal due times in key order,
  // so on platforms calling one resource at a time the new resources (indices 2 to 11) come
  // before the known ones (index 50) and take the breaker's failing trials: those are attempts.
  const known = referencesOf(world, 50);
  const fresh: Reference[] = Array.from({ length: 10 }, (_, index) => index + 2).flatMap((index) => referencesOf(world, index));
  await world.search(known);
  const before = await untilStatuses(world, known, ['available']);
  t.ok(
    before.every((entry) => entry.status === 'available'),
    'every known resource collected before the fault',
  );

  for (const platform of withOneBreaker) await world.setFault(platform, 'error');
  await world.search(fresh);
  const opened = await untilEveryBreaker(world, (status) => status.breaker.state === 'open', 10_000);
  for (const [platform, status] of opened) t.equal(status.breaker.state, 'open', `${platform}: its breaker opened`);

  // The fault lasts until every breaker has refused that many collections, or the longest it may take.
  const faulted = await untilEveryBreaker(world, (status) => collections(status, 'deferred') >= refusalsDuringFault, faultAfterOpenMs);
  for (const [platform, status] of faulted) {
    const refused = collections(status, 'deferred');
    t.ok(
      refused >= refusalsDuringFault,
      `${platform}: ${refused} collections refused by the open breaker, ${collections(status, 'failed')} failed`,
    );
  }
  for (const reference of known) {
    // Its refresh failing before the breaker opened, and any trial it took (the new resources
    // take most): each recorded as an attempt. The refusals, many times more, are not.
    const { failures, history } = world.context(reference);
    const sinceCollected = history.slice(history.map((entry) => entry.event).lastIndexOf('COLLECTED') + 1);
    const failedAttempts = sinceCollected.filter((entry) => entry.event === 'FAILED').length;
    t.equal(failures, failedAttempts, `${label(reference)}: ${failures} failures counted, one per failed attempt, none per refusal`);
  }

  for (const platform of withOneBreaker) await world.setFault(platform, 'none');
  const closed = await untilEveryBreaker(world, (status) => status.breaker.state === 'closed', 10_000);
  for (const [platform, status] of closed) t.equal(status.breaker.state, 'closed', `${platform}: its breaker's trial succeeded`);
  // Each known resource's first collection after its breaker's successful trial, read from its
  // history: within its own backoff (its failed attempts alone decide it) and one retry base more
  // for a loaded machine's lag between due and collected. Refusals counted as failures would put
  // it at 8 s or more.
  const fullPolicy = { ...shortPolicy, ...policy };
  const allowedMs = (reference: Reference) => retryDelay(fullPolicy, world.context(reference).failures, 1) + policy.retryBaseMs;
  const recollectedAt = new Map<Reference, number>();
  const readRecollections = () => {
    for (const reference of known) {
      const trialAt = closed.get(reference.platform)!.breaker.since!;
      const collected = world.context(reference).history.find((entry) => entry.event === 'COLLECTED' && entry.at >= trialAt);
      if (collected) recollectedAt.set(reference, collected.at - trialAt);
    }
    return recollectedAt.size;
  };
  await eventually(readRecollections, (size) => size === known.length, 5 * policy.retryBaseMs);
  for (const reference of known) {
    const after = recollectedAt.get(reference);
    t.ok(
      after !== undefined && after <= allowedMs(reference),
      `${label(reference)}: collected ${after ?? 'not even 10 s'} ms after its breaker's successful trial, within ${allowedMs(reference)} ms`,
    );
  }
  const recovered = await world.search(known);
  for (const [index, entry] of recovered.entries()) t.equal(entry.status, 'available', `${label(known[index]!)}: available`);
});
