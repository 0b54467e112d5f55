// Two resource hosts on one data directory racing on one resource (docs/architecture.md,
// "Conditional commits"): each step is committed only if the snapshot it was computed from is
// still stored; the loser computes its step again from the winner's snapshot. No result is
// lost and the resource keeps exactly one due entry.
import t, { type Test } from 'tap';
import { limits } from '../../src/config.js';
import { found, notFound } from '../../src/model.js';
import { openDatabases, type Databases } from '../../src/store/environment.js';
import { ResourceStore } from '../../src/store/resourceStore.js';
import { testResourceHost } from '../helpers/resourceHost.js';
import { tempDataDir } from '../helpers/service.js';

const key = 'github/account/octocat';
const at = Date.UTC(2026, 10, 23);

/** Holds the first `count` commits (of any host) until all have been asked for, then lets them race. */
function barrier(count: number) {
  const waiting: Array<() => void> = [];
  return (): Promise<void> => {
    if (waiting.length >= count) return Promise.resolve();
    return new Promise((resolve) => {
      waiting.push(resolve);
      if (waiting.length === count) for (const release of waiting) release();
    });
  };
}

function resourceHostOn(t: Test, dataDir: string, beforeCommit: () => Promise<void>) {
  const dbs = openDatabases(dataDir);
  t.teardown(() => dbs.root.close());
  const store = new ResourceStore(dbs);
  const commits: boolean[] = [];
  const commit = store.commit.bind(store);
  store.commit = async (...args) => {
    await beforeCommit();
    const won = await commit(...args);
    commits.push(won);
    return won;
  };
  return { dbs, store, commits, ...testResourceHost(store, { now: () => at + 1_000 }) };
}

function dueEntriesOf(dbs: Databases): unknown[] {
  dbs.root.resetReadTxn();
  return [...dbs.due.getRange()].filter((entry) => (entry.key as [number, string])[1] === key);
}

t.test('commit race - two hosts delivering outcomes for one resource at once: both recorded, one due entry', async (t) => {
  const dataDir = tempDataDir(t);
  let gate = () => Promise.resolve();
  const first = resourceHostOn(t, dataDir, () => gate());
  const second = resourceHostOn(t, dataDir, () => gate());
  first.resourceHost.wanted([key], at);
  await first.resourceHost.settled();
  t.same(first.commits, [true], 'created by the first host');

  gate = barrier(2);
  const collected = found({ metrics: { followers: { value: 42, semantic: 'followers' } } });
  await Promise.all([first.resourceHost.deliver(key, collected), second.resourceHost.deliver(key, notFound)]);
  t.same([first.commits[1], second.commits[0]].sort(), [false, true], 'both computed from version 1: one lost');
  t.same([...first.commits.slice(1), ...second.commits].filter((won) => won).length, 2, 'the loser committed on its second attempt');

  first.dbs.root.resetReadTxn();
  const stored = new ResourceStore(first.dbs).snapshotEntry(key)!;
  t.equal(stored.version, 3, 'created, then one commit per outcome');
  t.same(stored.resource.context.history.map((entry) => entry.event).sort(), ['COLLECTED', 'NOT_FOUND'], 'no result lost');
  t.same(dueEntriesOf(first.dbs).length, 1, 'one due entry');
  t.same(second.store.snapshotEntry(key), stored, 'both hosts read the same resource');
  t.same([first.errors, second.errors], [[], []]);
});

t.test('commit race - two hosts creating one resource at once: one creates it and asks for its collection', async (t) => {
  const dataDir = tempDataDir(t);
  const gate = barrier(2);
  const first = resourceHostOn(t, dataDir, gate);
  const second = resourceHostOn(t, dataDir, gate);
  first.resourceHost.wanted([key], at);
  second.resourceHost.wanted([key], at);
  await Promise.all([first.resourceHost.settled(), second.resourceHost.settled()]);
  t.same([...first.commits, ...second.commits].sort(), [false, true], 'one creation wins');
  t.same([...first.requested, ...second.requested], [key], 'one collection asked for, by the winner');
  t.same(dueEntriesOf(first.dbs).length, 1, 'one due entry');
  t.same([first.errors, second.errors], [[], []], 'losing a creation is not an error');
});

t.test('commit race - a step that keeps losing gives up after a bounded number of attempts', async (t) => {
  const dataDir = tempDataDir(t);
  const { store, resourceHost, errors } = resourceHostOn(t, dataDir, () => Promise.resolve());
  resourceHost.wanted([key], at);
  await resourceHost.settled();
  let attempts = 0;
  store.commit = async () => {
    attempts++;
    return false;
  };
  await t.rejects(resourceHost.deliver(key, notFound), {
    message: `NOT_FOUND for ${key} not committed: another writer changed it ${limits.commitAttempts} times in a row`,
  });
  t.equal(attempts, limits.commitAttempts);
  t.same(errors, []);
});
