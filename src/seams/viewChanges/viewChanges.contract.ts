// What every view-change feed must do (docs/push.md#where-changes-come-from), run against
// each implementation: the in-process one now, a cluster one later. A feed may deliver later
// than it is told (across nodes); `delivered()` waits until everything told has arrived.
import type { Test } from 'tap';
import type { ResourceView } from '../../resources/view.js';
import type { ViewChanges } from './viewChanges.js';

export interface ViewChangesHarness {
  /** Where changes are told. */
  teller: ViewChanges;
  /** Where they are heard: the same feed in one process, another node's in a cluster. */
  hearer: ViewChanges;
  /** Resolves once every change told so far has reached every listener. */
  delivered(): Promise<void>;
}

const view = (status: string, refreshAfter = 0): ResourceView => ({ entryEnd: `,"status":"${status}"}`, refreshAfter });

export function viewChangesContract(t: Test, name: string, open: (t: Test) => Promise<ViewChangesHarness>): void {
  t.test(`${name} - a listener hears every change, in the order told for each resource`, async (t) => {
    const { teller, hearer, delivered } = await open(t);
    const heard: Array<[string, ResourceView]> = [];
    hearer.listen((key, changed) => heard.push([key, changed]));
    teller.changed('github/account/a', view('pending'));
    teller.changed('github/account/b', view('pending'));
    teller.changed('github/account/a', view('available', 1_000));
    teller.changed('github/account/a', view('stale'));
    await delivered();
    t.same(
      heard.filter(([key]) => key === 'github/account/a'),
      [
        ['github/account/a', view('pending')],
        ['github/account/a', view('available', 1_000)],
        ['github/account/a', view('stale')],
      ],
    );
    t.same(
      heard.filter(([key]) => key === 'github/account/b'),
      [['github/account/b', view('pending')]],
    );
  });

  t.test(`${name} - every listener hears each change; one that stopped hears no more`, async (t) => {
    const { teller, hearer, delivered } = await open(t);
    const first: string[] = [];
    const second: string[] = [];
    const stopFirst = hearer.listen((_key, changed) => first.push(changed.entryEnd));
    hearer.listen((_key, changed) => second.push(changed.entryEnd));
    teller.changed('x/account/one', view('pending'));
    await delivered();
    stopFirst();
    teller.changed('x/account/one', view('available'));
    await delivered();
    t.same(first, [view('pending').entryEnd]);
    t.same(second, [view('pending').entryEnd, view('available').entryEnd]);
  });

  t.test(`${name} - one function listening twice is two listeners, stopped apart`, async (t) => {
    const { teller, hearer, delivered } = await open(t);
    const heard: string[] = [];
    const listener = (key: string) => heard.push(key);
    const stop = hearer.listen(listener);
    hearer.listen(listener);
    teller.changed('x/account/one', view('pending'));
    await delivered();
    stop();
    teller.changed('x/account/two', view('pending'));
    await delivered();
    t.same(heard, ['x/account/one', 'x/account/one', 'x/account/two']);
  });

  t.test(`${name} - a change told before anyone listens is not replayed`, async (t) => {
    const { teller, hearer, delivered } = await open(t);
    teller.changed('x/account/early', view('pending'));
    await delivered();
    const heard: string[] = [];
    hearer.listen((key) => heard.push(key));
    teller.changed('x/account/late', view('pending'));
    await delivered();
    t.same(heard, ['x/account/late']);
  });
}
