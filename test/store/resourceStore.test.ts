// The resource store's view cache: what a search reads, and when it reads it from memory.
import t from 'tap';
import { openDatabases } from '../../src/store/environment.js';
import { ResourceStore } from '../../src/store/resourceStore.js';
import { tempDataDir } from '../helpers/service.js';
import { availableResource, viewOf } from './resourceFixtures.js';

t.test('resource store - a view read from disk is kept in memory from its second read on', async (t) => {
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  const key = 'github/account/octocat';
  const viewFor = (followers: number) => viewOf(availableResource(followers));
  // Written behind the store's back, so that what it answers shows where it read from.
  const writeBehind = (followers: number) => {
    const view = viewFor(followers);
    return dbs.views.put(key, [view.entryEnd, view.refreshAfter]);
  };
  const store = new ResourceStore(dbs);
  await writeBehind(1);
  t.same(store.view(key), viewFor(1), 'the first read comes from disk');
  await writeBehind(2);
  t.same(store.view(key), viewFor(2), 'so does the second: one read did not cache it');
  await writeBehind(3);
  t.same(store.view(key), viewFor(2), 'the third is served from memory: the second read cached it');
  t.equal(store.view('github/account/nobody'), undefined, 'a resource never written has no view');
});
