// Every platform and type of the registry, through the real collector against the real
// emulator on a fixed clock: found, missing (the name convention), flaky (HTTP 503),
// rate-limited, malformed and not-found (the fault switch). A new platform is covered by
// its folder alone: the identifiers are its rules' own examples. Per-platform tests keep
// only parsing quirks. docs/adding-a-platform.md
import t from 'tap';
import { type CollectionOutcome, metricsOfType, type ResourceType } from '../../src/model.js';
import { identifierRules, platforms } from '../../src/platforms/registry.js';
import type { FaultMode } from '../../src/emulator/world.js';
import { asyncScheduler, firstValueFrom, from, toArray } from 'rxjs';
import { collectResources } from '../../streams/collection.js';
import { emulatedCollectors, fixedNow } from '../helpers/platforms.js';

const cases = identifierRules;

const faultCases: Array<[FaultMode, (outcome: CollectionOutcome) => boolean, string]> = [
  ['ratelimit', (outcome) => outcome.kind === 'rateLimited' && outcome.retryAt > fixedNow, 'rateLimited, retry after the fixed now'],
  [
    'malformed',
    (outcome) => outcome.kind === 'failed' && outcome.reason === 'upstream body does not match the expected shape',
    'failed as unparsable (never not_found, never a zero)',
  ],
  ['notfound', (outcome) => outcome.kind === 'notFound', 'notFound'],
  ['error', (outcome) => outcome.kind === 'failed' && outcome.reason === 'unexpected upstream status 503', 'failed with the 503'],
];

t.test('conformance - every platform and type: found, missing, flaky, rate-limited, malformed, not-found', async (t) => {
  const emulated = await emulatedCollectors();
  t.teardown(() => emulated.close());
  t.ok(cases.length >= platforms.size, 'every platform has at least one type');
  for (const { platform, type, rule } of cases) {
    const name = `${platform}/${type}`;
    const { valid, missing, flaky, invalid } = rule.examples;
    for (const identifier of [valid, missing, flaky])
      t.ok(rule.pattern.test(identifier) && identifier.length <= rule.maxLength, `${name}: example ${identifier} is valid`);
    for (const identifier of invalid)
      t.notOk(rule.pattern.test(identifier) && identifier.length <= rule.maxLength, `${name}: ${identifier} is refused`);

    const found = await emulated.collect(platform, type, valid);
    t.equal(found.kind, 'found', `${name}: found`);
    if (found.kind === 'found') {
      const metrics = found.datapoints.metrics;
      t.same(Object.keys(metrics).sort(), [...metricsOfType[type]].sort(), `${name}: reports exactly the ${type} datapoints`);
      t.ok(
        Object.values(metrics).every((point) => point.value === null || (Number.isInteger(point.value) && Number(point.value) >= 0)),
        `${name}: every value a whole count or null`,
      );
      t.ok(
        Object.values(metrics).some((point) => typeof point.value === 'number'),
        `${name}: at least one count`,
      );
    }
    t.same(await emulated.collect(platform, type, valid), found, `${name}: the same answer again on the fixed clock`);
    t.same(await emulated.collect(platform, type, missing), { kind: 'notFound' }, `${name}: missing is notFound`);
    t.same(
      await emulated.collect(platform, type, flaky),
      { kind: 'failed', reason: 'unexpected upstream status 503' },
      `${name}: flaky fails`,
    );

    for (const [mode, expected, description] of faultCases) {
      emulated.emulator.world.setFault(platform, '*', mode);
      const outcome = await emulated.collect(platform, type, valid);
      t.ok(expected(outcome), `${name} with fault ${mode}: ${description} (got ${JSON.stringify(outcome)})`);
      emulated.emulator.world.setFault(platform, '*', 'none');
    }
    t.same(await emulated.collect(platform, type, valid), found, `${name}: recovers when the faults are cleared`);
  }
});

t.test('conformance - one flaky item does not fail its batch: the collection stream isolates it on every platform', async (t) => {
  const emulated = await emulatedCollectors();
  t.teardown(() => emulated.close());
  const keyOf = (platform: string, type: ResourceType, identifier: string, rule: (typeof cases)[number]['rule']) =>
    `${platform}/${type}/${rule.normalize(identifier)}`;
  const expected = new Map<string, CollectionOutcome['kind']>();
  for (const { platform, type, rule } of cases) {
    expected.set(keyOf(platform, type, rule.examples.valid, rule), 'found');
    expected.set(keyOf(platform, type, rule.examples.flaky, rule), 'failed');
    expected.set(keyOf(platform, type, rule.examples.missing, rule), 'notFound');
  }
  const results = await firstValueFrom(
    collectResources(from([...expected.keys()]), {
      collectors: emulated.collectors,
      scheduler: asyncScheduler,
      timeoutMs: 5_000,
      batchWindowMs: 20,
      // Wide enough that the flaky items alone never open it.
      breaker: { failureThreshold: 100, cooldownMs: 1_000, maxCooldownMs: 1_000 },
    }).pipe(toArray()),
  );
  t.same(
    Object.fromEntries(results.map(({ key, outcome }) => [key, outcome.kind])),
    Object.fromEntries(expected),
    'valid items found, flaky ones failed, missing ones notFound, batched or not',
  );
});
