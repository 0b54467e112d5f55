// The bounded transition history of each resource, written in its commits (docs/storage.md,
// "Transition history").
import t from 'tap';
import { defaultPolicy, limits } from '../../src/config.js';
import { found } from '../../src/model.js';
import { openDatabases } from '../../src/store/environment.js';
import { ResourceStore } from '../../src/store/resourceStore.js';
import { testResourceHost } from '../helpers/resourceHost.js';
import { tempDataDir } from '../helpers/service.js';
import { at, availableResource, commitResource, pendingResource } from './resourceFixtures.js';

const key = 'github/account/octocat';

t.test('history - keeps the last 20 transitions of a resource, oldest first, across a reopen', async (t) => {
  const dataDir = tempDataDir(t);
  const dbs = openDatabases(dataDir);
  const store = new ResourceStore(dbs);
  t.ok(await commitResource(store, { key, next: pendingResource(), cause: { event: 'CREATED', at } }));
  let previous = pendingResource();
  for (let version = 1; version <= 24; version++) {
    const next = availableResource(version);
    t.ok(
      await commitResource(store, { key, base: { version, resource: previous }, next, cause: { event: 'COLLECTED', at: at + version } }),
    );
    previous = next;
  }
  await commitResource(store, { key: 'github/account/other', next: pendingResource(), cause: { event: 'CREATED', at } });
  const history = store.history(key);
  t.equal(history.length, limits.resourceHistoryLength, 'bounded');
  t.same(history[0], { at: at + 5, event: 'COLLECTED', from: 'available', to: 'available' }, 'the oldest kept is the 20th from the end');
  t.same(history.at(-1), { at: at + 24, event: 'COLLECTED', from: 'available', to: 'available' });
  t.equal(dbs.history.getKeysCount({ start: [key, 0], end: [key, Number.MAX_SAFE_INTEGER] }), 20, 'nothing older is left on disk');
  await dbs.root.close();

  const reopened = openDatabases(dataDir);
  t.teardown(() => reopened.root.close());
  const again = new ResourceStore(reopened);
  t.same(again.history(key), history, 'the history survives a restart');
  t.same(again.history('github/account/other'), [{ at, event: 'CREATED', from: null, to: 'pending' }], 'each resource has its own');
  t.same(again.history('github/account/nobody'), []);
});

t.test('history - a commit that loses to another writer records nothing', async (t) => {
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  const store = new ResourceStore(dbs);
  await commitResource(store, { key, next: pendingResource(), cause: { event: 'CREATED', at } });
  t.equal(await commitResource(store, { key, next: pendingResource(), cause: { event: 'CREATED', at: at + 1 } }), false);
  t.equal(
    await commitResource(store, {
      key,
      base: { version: 7, resource: pendingResource() },
      next: availableResource(1),
      cause: { event: 'COLLECTED', at: at + 2 },
    }),
    false,
  );
  t.same(store.history(key), [{ at, event: 'CREATED', from: null, to: 'pending' }]);
});

t.test('history - the resource host records each step with the event that made it', async (t) => {
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  const store = new ResourceStore(dbs);
  const clock = { now: at };
  const { resourceHost: host } = testResourceHost(store, {
    now: () => clock.now,
    onError: (failed, error) => t.fail(`${failed}: ${String(error)}`),
  });
  host.wanted([key], clock.now);
  await host.settled();
  clock.now += 1_000;
  await host.deliver(key, { kind: 'failed', reason: 'upstream 503' });
  clock.now += 1_000;
  await host.deliver(key, found({ metrics: { followers: { value: 5, semantic: 'followers' } }, attributes: {} }));
  clock.now += 1_000;
  await host.send(key, { type: 'REFRESH_DUE', at: clock.now + defaultPolicy.freshForMs });
  clock.now += 1_000;
  await host.abandoned(key);
  t.same(store.history(key), [
    { at, event: 'CREATED', from: null, to: 'pending' },
    { at: at + 1_000, event: 'FAILED', from: 'pending', to: 'unavailable' },
    { at: at + 2_000, event: 'COLLECTED', from: 'unavailable', to: 'available' },
    { at: at + 3_000 + defaultPolicy.freshForMs, event: 'REFRESH_DUE', from: 'available', to: 'available' },
    { at: at + 4_000, event: 'LEASE_ENDED', from: 'available', to: 'available' },
  ]);
});
