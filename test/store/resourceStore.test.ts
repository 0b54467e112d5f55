// The resource store's on-disk format: snapshots written before they shared their record
// structures (every key inline) still read back unchanged, next to ones written since.
import { join } from 'node:path';
import { open } from 'lmdb';
import t from 'tap';
import { initialTransition, transition } from 'xstate';
import { createResourceMachine, dueEventFor } from '../../machines/resource.js';
import { defaultPolicy } from '../../src/config.js';
import { renderView } from '../../src/resources/view.js';
import { openDatabases } from '../../src/store/environment.js';
import { ResourceStore, type StoredResource } from '../../src/store/resourceStore.js';
import { tempDataDir } from '../helpers/service.js';

const machine = createResourceMachine(defaultPolicy);
const at = Date.UTC(2026, 10, 23, 12);

function availableResource(followers: number): StoredResource {
  const [pending] = initialTransition(machine, { createdAt: at });
  const [available] = transition(machine, pending, {
    type: 'COLLECTED',
    at,
    datapoints: { metrics: { followers: { value: followers, semantic: 'followers' } }, attributes: { likes: { value: followers * 3, semantic: 'likes' } } },
  });
  return { value: available.value as StoredResource['value'], context: available.context };
}

t.test('resource store - snapshots in the older inline format read back beside shared-structure ones', async (t) => {
  const dataDir = tempDataDir(t);
  const older = availableResource(1);
  // The layout of environment.ts before snapshots shared their structures.
  const before = open({ path: join(dataDir, 'datapoints.mdb'), maxDbs: 16, cache: false });
  await before.openDB({ name: 'resources' }).put('github/account/older', older);
  await before.close();

  const dbs = openDatabases(dataDir);
  const newer = availableResource(2);
  await new ResourceStore(dbs).commit('github/account/newer', undefined, newer, renderView('available', newer.context), dueEventFor.available);
  await dbs.root.close();

  const reopened = openDatabases(dataDir);
  t.teardown(() => reopened.root.close());
  const store = new ResourceStore(reopened);
  t.same(store.snapshot('github/account/older'), older);
  t.same(store.snapshot('github/account/newer'), newer);
  t.equal(store.count(), 1, 'resources are counted by their views: only the newer one has one');
  t.same([...reopened.resources.getKeys()], ['github/account/newer', 'github/account/older'], 'the shared structures are no resource');
});

t.test('resource store - a view read from disk is kept in memory from its second read on', async (t) => {
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  const key = 'github/account/octocat';
  const viewOf = (followers: number) => renderView('available', availableResource(followers).context);
  // Written behind the store's back, so that what it answers shows where it read from.
  const writeBehind = (followers: number) => {
    const view = viewOf(followers);
    return dbs.views.put(key, [view.tail, view.refreshAfter]);
  };
  const store = new ResourceStore(dbs);
  await writeBehind(1);
  t.same(store.view(key), viewOf(1), 'the first read comes from disk');
  await writeBehind(2);
  t.same(store.view(key), viewOf(2), 'so does the second: one read did not cache it');
  await writeBehind(3);
  t.same(store.view(key), viewOf(2), 'the third is served from memory: the second read cached it');
  t.equal(store.view('github/account/nobody'), undefined, 'a resource never written has no view');
});
