// A service against its own emulator with short policies, for fault tests: every registered
// platform and type, the emulator's fault switch, and the persisted snapshots to read backoff from.
import type { Test } from 'tap';
import type { ResourceContext } from '../../machines/resource.js';
import type { BreakerPolicy } from '../../streams/circuitBreaker.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import type { FaultMode } from '../../src/emulator/world.js';
import { resourceKey, type PlatformCode, type ResourceType } from '../../src/model.js';
import { identifierRules, platforms } from '../../src/platforms/registry.js';
import { openDatabases } from '../../src/store/environment.js';
import { ResourceStore } from '../../src/store/resourceStore.js';
import type { SearchBody, SearchEntry } from '../helpers/searchBody.js';
import { eventually } from '../helpers/eventually.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { sampleIdentifier } from './samples.js';

export interface Reference {
  platform: string;
  type: ResourceType;
  identifier: string;
}

export const shortPolicy = { retryBaseMs: 50, retryCapMs: 400, recheckAfterMs: 300, freshForMs: 400, leaseMs: 3_000 };
export const shortBreaker = { failureThreshold: 5, cooldownMs: 100, maxCooldownMs: 200 };
export const collectTimeoutMs = 300;

/**
 * The emulator's rate-limit answers name a reset 60 s ahead; its clock runs 57 s behind so
 * that reset falls 3 s ahead and recovery is observable within a test.
 */
const emulatorSkewMs = 57_000;

export interface FaultWorld {
  ts: TestService;
  emulator: RunningEmulator;
  token: string;
  /** The index-th sample resource of every registered platform and type. */
  references(index: number): Reference[];
  setFault(platform: string, mode: FaultMode): Promise<void>;
  search(references: Reference[]): Promise<SearchEntry[]>;
  context(reference: Reference): ResourceContext;
}

export interface FaultWorldOptions {
  breaker?: BreakerPolicy;
  collectTimeoutMs?: number;
  policy?: Partial<typeof shortPolicy>;
}

export async function faultWorld(t: Test, options: FaultWorldOptions = {}): Promise<FaultWorld> {
  const emulator = await startEmulator(0, () => Date.now() - emulatorSkewMs);
  const ts = await startTestService(t, {
    upstream: emulator.url,
    policy: { ...shortPolicy, ...options.policy },
    collectTimeoutMs: options.collectTimeoutMs ?? collectTimeoutMs,
    breaker: options.breaker ?? shortBreaker,
  });
  t.teardown(() => emulator.close());
  const dbs = openDatabases(ts.dataDir);
  t.teardown(() => dbs.root.close());
  const store = new ResourceStore(dbs);
  const token = await ts.tokenFor('faults', { plan: 'paid', quota: null, rate: { limit: 1_000_000, windowMs: 60_000 } });
  return {
    ts,
    emulator,
    token,
    references: (index) =>
      identifierRules.map(({ platform, type, rule }) => ({ platform, type, identifier: sampleIdentifier(rule, index) })),
    async setFault(platform, mode) {
      const response = await fetch(`${emulator.url}/_emulator/faults`, {
        method: 'POST',
        body: JSON.stringify({ platform, identifier: '*', mode }),
      });
      t.equal(response.status, 204, `fault ${mode} set on ${platform}`);
    },
    async search(references) {
      const data: SearchEntry[] = [];
      for (let start = 0; start < references.length; start += 10) {
        const answer = await ts.search(token, { resources: references.slice(start, start + 10) });
        if (answer.status !== 200) throw new Error(`search answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        data.push(...(answer.body as SearchBody).data);
      }
      return data;
    },
    context(reference) {
      dbs.root.resetReadTxn();
      const rule = platforms.get(reference.platform as PlatformCode)!.identifiers[reference.type]!;
      const key = resourceKey({
        platform: reference.platform as PlatformCode,
        type: reference.type,
        identifier: rule.normalize(reference.identifier),
      });
      return store.snapshot(key)!.context;
    },
  };
}

/** Polls the search API until every entry has one of `statuses`; returns the last answer. */
export function untilStatuses(world: FaultWorld, references: Reference[], statuses: string[], timeoutMs = 6_000): Promise<SearchEntry[]> {
  return eventually(
    () => world.search(references),
    (data) => data.every((entry) => statuses.includes(entry.status)),
    timeoutMs,
  );
}

export const label = (entry: { platform: string; type: string; identifier: string }) =>
  `${entry.platform} ${entry.type} ${entry.identifier}`;
