// The resource log contract (docs/design/cluster.md#resource-replication): what every implementation
// of ResourceLog must do, run against each of them (test/cluster/resourceLog.system.test.ts).
import type { Test } from 'tap';
import { dueEventFor } from '../../../machines/resource.js';
import type { LogFollower, ResourceLog } from './resourceLog.js';
import type { LoggedChange } from '../../store/resourceReplica.js';
import type { ResourceChange, StoredResource } from '../../store/resourceStore.js';
import { availableResource, pendingResource, viewOf } from '../../../test/store/resourceFixtures.js';

export const changeOf = (resource: StoredResource): ResourceChange => ({
  resource,
  view: viewOf(resource),
  event: dueEventFor[resource.value],
});

/** The next `count` changes the follower yields; fails after `withinMs` rather than hang. */
export async function nextChanges(follower: LogFollower, count: number, withinMs = 5_000): Promise<LoggedChange[]> {
  const taken: LoggedChange[] = [];
  if (count === 0) return taken;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${taken.length} of ${count} changes within ${withinMs} ms`)), withinMs);
  });
  const iterator = follower[Symbol.asyncIterator]();
  try {
    while (taken.length < count) {
      const next = await Promise.race([iterator.next(), timedOut]);
      if (next.done) throw new Error(`the follower ended after ${taken.length} of ${count} changes`);
      taken.push(next.value);
    }
  } finally {
    clearTimeout(timer);
  }
  return taken;
}

const keysAndRevisions = (changes: LoggedChange[]) => changes.map((change) => [change.key, change.revision]);

export function resourceLogContract(t: Test, name: string, open: (t: Test) => Promise<ResourceLog>): void {
  t.test(`${name} - a new key takes a change at revision 0 once; a second creation gets the first`, async (t) => {
    const log = await open(t);
    const first = await log.append('gh/account/a', 0, changeOf(pendingResource()));
    t.ok(first.appended && first.revision > 0, 'appended with a revision');
    const second = await log.append('gh/account/a', 0, changeOf(availableResource(5)));
    t.equal(second.appended, false);
    t.same(second.appended ? undefined : second.current, {
      key: 'gh/account/a',
      revision: first.appended ? first.revision : -1,
      ...changeOf(pendingResource()),
    });
    t.same(await log.latest('gh/account/a'), second.appended ? undefined : second.current, 'nothing was written');
  });

  t.test(`${name} - a change goes in on the key's last revision only, with a higher revision`, async (t) => {
    const log = await open(t);
    const created = await log.append('gh/account/a', 0, changeOf(pendingResource()));
    const createdRevision = created.appended ? created.revision : 0;
    const updated = await log.append('gh/account/a', createdRevision, changeOf(availableResource(1)));
    t.ok(updated.appended && updated.revision > createdRevision);
    const stale = await log.append('gh/account/a', createdRevision, changeOf(availableResource(2)));
    t.equal(stale.appended, false);
    t.same(stale.appended ? undefined : stale.current?.resource, availableResource(1), 'the refusal carries the winner');
    t.equal(await log.head(), updated.appended ? updated.revision : -1);
  });

  t.test(`${name} - an unknown key has no change, and keys of any characters travel intact`, async (t) => {
    const log = await open(t);
    t.equal(await log.latest('gh/account/nobody'), undefined);
    t.equal(await log.head(), 0, 'an empty log ends at 0');
    const keys = ['tw/user/a.b', 'yt/channel/*>', 'gh/repo/with space', 'ig/user/ünïcødé'];
    for (const key of keys) await log.append(key, 0, changeOf(pendingResource()));
    t.same(await Promise.all(keys.map(async (key) => (await log.latest(key))?.key)), keys);
  });

  t.test(`${name} - a follower from 0 gets the last change of every key in revision order, then each new one`, async (t) => {
    const log = await open(t);
    await log.append('a', 0, changeOf(pendingResource()));
    await log.append('b', 0, changeOf(pendingResource()));
    const a = await log.latest('a');
    await log.append('a', a?.revision ?? -1, changeOf(availableResource(1)));
    const follower = await log.follow(0);
    t.teardown(() => follower.stop());
    const history = await nextChanges(follower, 2);
    t.same(keysAndRevisions(history), [
      ['b', 2],
      ['a', 3],
    ]);
    t.same(history[1]?.resource, availableResource(1));
    await log.append('c', 0, changeOf(pendingResource()));
    t.same(keysAndRevisions(await nextChanges(follower, 1)), [['c', 4]], 'a change appended while following');
  });

  t.test(`${name} - a follower from a revision gets only the changes after it`, async (t) => {
    const log = await open(t);
    for (const key of ['a', 'b', 'c']) await log.append(key, 0, changeOf(pendingResource()));
    const follower = await log.follow(2);
    t.teardown(() => follower.stop());
    t.same(keysAndRevisions(await nextChanges(follower, 1)), [['c', 3]]);
    const ahead = await log.follow(3);
    t.teardown(() => ahead.stop());
    await log.append('d', 0, changeOf(pendingResource()));
    t.same(keysAndRevisions(await nextChanges(ahead, 1)), [['d', 4]], 'a follower at the end waits for the next');
  });

  t.test(`${name} - a stopped follower ends its iteration`, async (t) => {
    const log = await open(t);
    const follower = await log.follow(0);
    const ended = (async () => {
      for await (const change of follower) t.fail(`nothing was appended, yet ${change.key} came`);
      return true;
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    follower.stop();
    t.equal(await ended, true);
  });
}
