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
