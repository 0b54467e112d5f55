// The resource host, the in-process OutcomeSink, against the OutcomeSink contract over a real
// LMDB store.
import t from 'tap';
import { openDatabases } from '../../src/store/environment.js';
import { ResourceStore } from '../../src/store/resourceStore.js';
import { testResourceHost } from '../helpers/resourceHost.js';
import { tempDataDir } from '../helpers/service.js';
import { outcomeSinkContract } from '../../src/seams/collection/outcomeSink.contract.js';

outcomeSinkContract(t, 'resource host as outcome sink', async (t) => {
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  const store = new ResourceStore(dbs);
  const clock = { now: Date.UTC(2026, 10, 23) };
  const { resourceHost } = testResourceHost(store, {
    now: () => clock.now,
    onError: (key, error) => t.fail(`${key}: ${String(error)}`),
  });
  return {
    sink: resourceHost,
    async track(key) {
      resourceHost.wanted([key], clock.now);
      await resourceHost.settled();
    },
    status: (key) => store.snapshot(key)?.value,
    dueAt: (key) => store.dueBefore(Number.MAX_SAFE_INTEGER, 1_000).find((entry) => entry.key === key)?.dueAt,
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
