// Two writers on one data directory (docs/storage.md#conditional-commits): a commit
// computed from a snapshot another writer has since replaced writes nothing, whether the
// writers are two stores in one process or two processes.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { dueEventFor } from '../../machines/resource.js';
import { openDatabases, type Databases } from '../../src/store/environment.js';
import { ResourceStore, type StoredResource } from '../../src/store/resourceStore.js';
import { tempDataDir } from '../helpers/service.js';
import { availableResource, commitResource, pendingResource, viewOf } from './resourceFixtures.js';

const key = 'github/account/octocat';

function openStore(t: Test, dataDir: string): { dbs: Databases; store: ResourceStore } {
  const dbs = openDatabases(dataDir);
  t.teardown(() => dbs.root.close());
  return { dbs, store: new ResourceStore(dbs) };
}

/** What the directory holds for `key`, read past every store's memory. */
function onDisk(dbs: Databases) {
  dbs.root.resetReadTxn();
  return {
    entry: new ResourceStore(dbs).snapshotEntry(key),
    view: dbs.views.get(key),
    due: [...dbs.due.getRange()].map(({ key, value }) => ({ key, value })),
  };
}

function expectOnly(t: Test, dbs: Databases, winner: StoredResource, version: number) {
  const { entry, view, due } = onDisk(dbs);
  t.same(entry, { resource: winner, version }, "the stored snapshot is the winner's, at the next version");
  const winnerView = viewOf(winner);
  t.same(view, [winnerView.entryEnd, winnerView.refreshAfter], "the stored view is the winner's");
  t.same(due, [{ key: [winner.context.nextDueAt, key], value: dueEventFor[winner.value] }], "one due entry: the winner's");
}

t.test('conditional commit - two stores racing from one version: exactly one wins, the loser writes nothing', async (t) => {
  const dataDir = tempDataDir(t);
  const first = openStore(t, dataDir);
  const second = openStore(t, dataDir);
  t.equal(await commitResource(first.store, { key, next: pendingResource() }), true, 'created');
  const readByFirst = first.store.snapshotEntry(key)!;
  const readBySecond = second.store.snapshotEntry(key)!;
  t.same([readByFirst.version, readBySecond.version], [1, 1], 'both read version 1');

  const firstNext = availableResource(10);
  const secondNext = availableResource(20);
  const outcomes = await Promise.all([
    commitResource(first.store, { key, base: readByFirst, next: firstNext }),
    commitResource(second.store, { key, base: readBySecond, next: secondNext }),
  ]);
  t.same([...outcomes].sort(), [false, true], 'exactly one commit wins');
  const winner = outcomes[0] ? firstNext : secondNext;
  expectOnly(t, first.dbs, winner, 2);
  for (const { store } of [first, second]) {
    t.same(store.snapshotEntry(key), { resource: winner, version: 2 }, "each store answers the winner's snapshot");
    t.same(store.view(key), viewOf(winner), "and the winner's view");
  }
});

t.test('conditional commit - a commit from an outdated snapshot loses, and its store reads the winner afresh', async (t) => {
  const dataDir = tempDataDir(t);
  const slow = openStore(t, dataDir);
  const fast = openStore(t, dataDir);
  const created = pendingResource();
  t.equal(await commitResource(slow.store, { key, next: created }), true);
  t.same(slow.store.view(key), viewOf(created), 'the creator serves its view from memory');

  const winner = availableResource(10);
  t.equal(
    await commitResource(fast.store, { key, base: { version: 1, resource: created }, next: winner }),
    true,
    'the other writer moves the resource to version 2',
  );
  t.same(slow.store.snapshotEntry(key), { resource: created, version: 1 }, 'the creator still remembers version 1');

  const late = availableResource(20);
  t.equal(
    await commitResource(slow.store, { key, base: { version: 1, resource: created }, next: late }),
    false,
    'a commit computed from version 1 loses',
  );
  expectOnly(t, slow.dbs, winner, 2);
  t.same(slow.store.snapshotEntry(key), { resource: winner, version: 2 }, 'the loser forgot version 1 and reads version 2');
  t.same(slow.store.view(key), viewOf(winner), "and serves the winner's view, not its own");

  t.equal(
    await commitResource(slow.store, { key, base: { version: 2, resource: winner }, next: late }),
    true,
    'recomputed from version 2, the commit goes through',
  );
  expectOnly(t, fast.dbs, late, 3);
});

t.test('conditional commit - two stores creating one resource: the second creation writes nothing', async (t) => {
  const dataDir = tempDataDir(t);
  const first = openStore(t, dataDir);
  const second = openStore(t, dataDir);
  const firstResource = availableResource(10);
  const secondResource = availableResource(20);
  const outcomes = await Promise.all([
    commitResource(first.store, { key, next: firstResource }),
    commitResource(second.store, { key, next: secondResource }),
  ]);
  t.same([...outcomes].sort(), [false, true], 'exactly one creation wins');
  expectOnly(t, first.dbs, outcomes[0] ? firstResource : secondResource, 1);
});

const writerScript = fileURLToPath(new URL('./commitRaceWriter.ts', import.meta.url));
/** The TypeScript loader tap runs this file with, so that the writer runs from source too. */
interface RaceWriter {
  ready: Promise<string>;
  result: Promise<string>;
  go(): void;
}

function spawnWriter(t: Test, dataDir: string, followers: number): RaceWriter {
  // This file's own node flags load TypeScript (test/loader/), so the writer runs from source too.
  const child = spawn(process.execPath, [...process.execArgv, writerScript, dataDir, key, String(followers)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let output = '';
  const line = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const look = () => {
        const match = pattern.exec(output);
        if (match) resolve(match[0]);
      };
      child.stdout.on('data', look);
      child.on('exit', (code) => reject(new Error(`writer exited with ${code}: ${output}`)));
    });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return {
    ready: line(/ready \S+/),
    result: line(/won|lost/).then(async (result) => {
      t.equal(await exited, 0, `the writer that ${result} exits cleanly`);
      return result;
    }),
    go: () => child.stdin.write('go\n'),
  };
}

t.test('conditional commit - two processes racing from one version: exactly one wins, the loser writes nothing', async (t) => {
  const dataDir = tempDataDir(t);
  const { dbs, store } = openStore(t, dataDir);
  t.equal(await commitResource(store, { key, next: pendingResource() }), true, 'created');

  const writers = [spawnWriter(t, dataDir, 10), spawnWriter(t, dataDir, 20)];
  t.same(await Promise.all(writers.map((writer) => writer.ready)), ['ready 1', 'ready 1'], 'both processes read version 1');
  for (const writer of writers) writer.go();
  const results = await Promise.all(writers.map((writer) => writer.result));
  t.same([...results].sort(), ['lost', 'won'], 'exactly one process wins');
  expectOnly(t, dbs, availableResource(results[0] === 'won' ? 10 : 20), 2);
});
