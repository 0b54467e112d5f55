// A resource host over a test's own store, on the test's clock: it keeps the collections it
// asks for and the errors it reports, for the test to assert.
import { createResourceMachine, type ResourceMachine } from '../../machines/resource.js';
import { defaultPolicy } from '../../src/config.js';
import { ResourceHost } from '../../src/resources/host.js';
import { CommittedLeases, type DueLeases } from '../../src/resources/memoryLeases.js';
import { SearchesFirstQueue } from '../../src/resources/searchesFirstQueue.js';
import { WorkRegistry } from '../../src/resources/workRegistry.js';
import type { ResourceStore } from '../../src/store/resourceStore.js';

export interface TestResourceHost {
  resourceHost: ResourceHost;
  /** The keys it asked the collection queue for, in order. */
  requested: string[];
  errors: unknown[];
}

export function testResourceHost(
  store: ResourceStore,
  options: {
    now: () => number;
    machine?: ResourceMachine;
    random?: number;
    /** Instead of keeping errors: e.g. fail the test at once. */
    onError?: (key: string, error: unknown) => void;
    /** Due steps' leases held here, as on a server alone; committed, as in a cluster, unless given. */
    leases?: DueLeases;
  },
): TestResourceHost {
  const requested: string[] = [];
  const errors: unknown[] = [];
  const resourceHost = new ResourceHost({
    store,
    machine: options.machine ?? createResourceMachine(defaultPolicy),
    work: new WorkRegistry(new SearchesFirstQueue({ sliceMs: 1, maxRunning: 16 })),
    requestCollection: (key) => requested.push(key),
    now: options.now,
    random: () => options.random ?? 0.5,
    onError: options.onError ?? ((_key, error) => errors.push(error)),
    leases: options.leases ?? new CommittedLeases(),
  });
  return { resourceHost, requested, errors };
}
