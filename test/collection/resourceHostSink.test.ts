// The resource host, the in-process OutcomeSink, against the OutcomeSink contract over a real
// LMDB store: as in a cluster (every lease committed) and as on a server alone (a due step's
// lease held in memory, docs/architecture.md#leases-in-memory).
import t from 'tap';
import { defaultPolicy } from '../../src/config.js';
import { MemoryLeases } from '../../src/resources/memoryLeases.js';
import { openDatabases } from '../../src/store/environment.js';
import { ResourceStore } from '../../src/store/resourceStore.js';
import { testResourceHost } from '../helpers/resourceHost.js';
import { tempDataDir } from '../helpers/service.js';
import { outcomeSinkContract } from '../../src/seams/collection/outcomeSink.contract.js';

for (const leasesInMemory of [false, true]) {
  const name = leasesInMemory ? 'resource host holding leases in memory as outcome sink' : 'resource host as outcome sink';
  outcomeSinkContract(t, name, async (t) => {
    const dbs = openDatabases(tempDataDir(t));
    t.teardown(() => dbs.root.close());
    const store = new ResourceStore(dbs);
    const clock = { now: Date.UTC(2026, 10, 23) };
    const leases = leasesInMemory ? new MemoryLeases() : undefined;
    const { resourceHost } = testResourceHost(store, {
      now: () => clock.now,
      onError: (key, error) => t.fail(`${key}: ${String(error)}`),
      leases,
    });
    const storedDueAt = (key: string) => store.dueBefore(Number.MAX_SAFE_INTEGER, 1_000).find((entry) => entry.key === key)?.dueAt;
    return {
      sink: resourceHost,
      async track(key) {
        resourceHost.wanted([key], clock.now);
        await resourceHost.settled();
        if (!leases) return;
        // The creation's lease is committed; once it ends, the retry's lease is held in memory.
        clock.now += defaultPolicy.leaseMs;
        await resourceHost.send(key, { type: 'RETRY_DUE', at: clock.now });
      },
      status: (key) => store.snapshot(key)?.value,
      // A server alone's due index passes over a resource while its lease held in memory runs.
      dueAt: (key) => (leases?.holds(key, clock.now) ? leases.endsAt(key) : storedDueAt(key)),
      now: () => clock.now,
      failNextWrite() {
        const commit = store.commit.bind(store);
        store.commit = () => {
          store.commit = commit;
          return Promise.reject(new Error('disk full'));
        };
      },
    };
  });
}
