// The due index as a server alone scans it (docs/architecture.md#leases-in-memory), over a real
// store's due index: it passes over resources leased in memory or in work, reads on from the last
// entry it read, and from the start again once `rescanMs` have passed.
import t, { type Test } from 'tap';
import type { DueEventType } from '../../machines/resource.js';
import { dueIndexPastLeases } from '../../src/resources/dueIndexPastLeases.js';
import { openDatabases } from '../../src/store/environment.js';
import { ResourceStore } from '../../src/store/resourceStore.js';
import type { DueWork } from '../../streams/dueWork.js';
import { tempDataDir } from '../helpers/service.js';

const rescanMs = 1_000;
const keyOf = (name: string) => `github/account/${name}`;
const namesOf = (entries: DueWork[]) => entries.map((entry) => entry.key.slice('github/account/'.length));

/** A store whose due index holds `names`, the first due at 1, the next at 2, ... */
async function storeWithDue(t: Test, names: string[]) {
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  const event: DueEventType = 'REFRESH_DUE';
  await Promise.all(names.map((name, index) => dbs.due.put([index + 1, keyOf(name)], event)));
  const store = new ResourceStore(dbs);
  const reads: Array<string | undefined> = [];
  const index = {
    dueBefore(now: number, limit: number, after?: DueWork) {
      reads.push(after?.key);
      return store.dueBefore(now, limit, after);
    },
  };
  return { dbs, store, index, reads };
}

t.test('due index past leases - passes over leased resources and those in work, and reads on from the last entry read', async (t) => {
  const { index, reads } = await storeWithDue(t, ['a', 'b', 'c', 'd', 'e', 'f']);
  const leased = new Set(['a', 'b']);
  const inWork = new Set(['c']);
  const due = dueIndexPastLeases({
    index,
    leased: (key) => leased.has(key.slice('github/account/'.length)),
    inWork: (key) => inWork.has(key.slice('github/account/'.length)),
    rescanMs,
  });
  const now = 10;
  t.same(namesOf(due.dueBefore(now, 2)), ['d', 'e']);
  t.same(namesOf(due.dueBefore(now, 2)), ['f'], 'the next scan starts after the last entry read');
  t.same(reads, [undefined, keyOf('b'), keyOf('d'), keyOf('e')], 'a, b and c were read once');
  leased.delete('a');
  inWork.delete('c');
  t.same(namesOf(due.dueBefore(now + rescanMs - 1, 2)), [], 'ended leases wait for the scan from the start');
  t.same(namesOf(due.dueBefore(now + rescanMs, 3)), ['a', 'c', 'd'], 'which passes over what is still leased');
});

t.test('due index past leases - reads on past a backlog of leases until its room is filled', async (t) => {
  const leasedNames = Array.from({ length: 300 }, (_, index) => `leased${String(index).padStart(3, '0')}`);
  const { index } = await storeWithDue(t, [...leasedNames, 'x', 'y', 'z']);
  const due = dueIndexPastLeases({
    index,
    leased: (key) => key.includes('leased'),
    inWork: () => false,
    rescanMs,
  });
  t.same(namesOf(due.dueBefore(1_000, 2)), ['x', 'y']);
  t.same(namesOf(due.dueBefore(1_000, 2)), ['z']);
  t.same(namesOf(due.dueBefore(1_000, 2)), [], 'nothing left that is not leased');
});

t.test('due index past leases - an entry moved away after it was read does not stop the next scan', async (t) => {
  const { dbs, index } = await storeWithDue(t, ['a', 'b', 'c']);
  const due = dueIndexPastLeases({ index, leased: () => false, inWork: () => false, rescanMs });
  t.same(namesOf(due.dueBefore(10, 1)), ['a']);
  // Its outcome's commit moved it to its next due time.
  await dbs.due.remove([1, keyOf('a')]);
  await dbs.due.put([50, keyOf('a')], 'REFRESH_DUE');
  t.same(namesOf(due.dueBefore(10, 5)), ['b', 'c']);
  t.same(namesOf(due.dueBefore(60, 5)), ['a'], 'and it is found again when it falls due');
});
