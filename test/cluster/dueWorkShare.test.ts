// The due index a cluster node scans (docs/design/cluster.md#due-work-exactly-once): a resource due less
// than the spread ago is offered to each node after a delay of that node's own; anything older is
// offered to every node; of a backlog larger than a scan takes, each node takes its own share first.
import t from 'tap';
import { candidatesPerPlace, delayOf, sharedDueIndex } from '../../src/cluster/dueWorkShare.js';
import type { DueWork } from '../../streams/dueWork.js';

const now = 1_000_000;
const spreadMs = 2_000;
const keys = Array.from({ length: 200 }, (_, n) => `github/account/user${n}`);
const dueAt = (key: string, at: number): DueWork => ({ key, dueAt: at, event: 'REFRESH_DUE' });
const nothingInWork = () => false;

function offeredTo(node: string, entries: DueWork[], at: number): string[] {
  return sharedDueIndex({ dueBefore: () => entries }, node, spreadMs, nothingInWork)
    .dueBefore(at, entries.length)
    .map((entry) => entry.key);
}

t.test('shared due index - a resource due longer than the spread ago is offered to every node', async (t) => {
  const entries = keys.map((key) => dueAt(key, now - spreadMs));
  t.same(offeredTo('node a', entries, now), keys);
  t.same(offeredTo('node b', entries, now), keys);
});

t.test("shared due index - a resource just due is offered to a node once that node's own delay has passed", async (t) => {
  const entries = keys.map((key) => dueAt(key, now));
  for (const node of ['node a', 'node b']) {
    const delays = new Map(keys.map((key) => [key, delayOf(node, key, spreadMs)]));
    t.ok(
      [...delays.values()].every((delay) => delay >= 0 && delay < spreadMs),
      `${node}: every delay is within the spread`,
    );
    for (const after of [0, 500, 1_000, 1_999]) {
      t.same(
        offeredTo(node, entries, now + after),
        keys.filter((key) => (delays.get(key) ?? spreadMs) <= after),
        `${node}, ${after} ms after`,
      );
    }
    t.same(offeredTo(node, entries, now + spreadMs), keys, `${node}: all of them once the spread has passed`);
  }
});

t.test('shared due index - nodes take just-due resources in different orders', async (t) => {
  const first = keys.filter((key) => delayOf('node a', key, spreadMs) < delayOf('node b', key, spreadMs)).length;
  t.ok(first > 60 && first < 140, `node a is first for ${first} of 200`);
});

t.test('shared due index - of a backlog, nodes take different resources first, and read more than they take', async (t) => {
  const entries = keys.map((key, n) => dueAt(key, now - 60_000 + n));
  const asked: number[] = [];
  const index = {
    dueBefore: (_at: number, limit: number) => {
      asked.push(limit);
      return entries.slice(0, limit);
    },
  };
  const [a, b] = ['node a', 'node b'].map((node) =>
    sharedDueIndex(index, node, spreadMs, nothingInWork)
      .dueBefore(now, 20)
      .map((entry) => entry.key),
  );
  t.same(asked, [20 * candidatesPerPlace, 20 * candidatesPerPlace], 'each scan reads eight candidates per place');
  t.equal(a!.length, 20);
  t.equal(b!.length, 20);
  const both = a!.filter((key) => b!.includes(key)).length;
  // Taking the oldest 20 alike, they would share all 20; in orders of their own about 20/8.
  t.ok(both <= 8, `node a and node b both take ${both} of their 20`);
  t.ok(
    a!.every((key) => keys.indexOf(key) < 20 * candidatesPerPlace),
    'every one taken is among the oldest candidates read',
  );
});

t.test('shared due index - with no spread every node is offered everything due, oldest first', async (t) => {
  const entries = keys.map((key, n) => dueAt(key, now - 60_000 + n));
  const index = { dueBefore: (_at: number, limit: number) => entries.slice(0, limit) };
  for (const node of ['node a', 'node b']) {
    t.same(
      sharedDueIndex(index, node, 0, nothingInWork)
        .dueBefore(now, 20)
        .map((entry) => entry.key),
      keys.slice(0, 20),
      node,
    );
  }
});

t.test('shared due index - a resource the node is working on is not offered again; others take its place', async (t) => {
  const entries = keys.map((key, n) => dueAt(key, now - 60_000 + n));
  const index = { dueBefore: (_at: number, limit: number) => entries.slice(0, limit) };
  const taken = (inWork: (key: string) => boolean) =>
    sharedDueIndex(index, 'node a', spreadMs, inWork)
      .dueBefore(now, 20)
      .map((entry) => entry.key);
  const first = taken(nothingInWork);
  // The next scan, while the first one's steps are still under way (their leases not yet committed).
  const second = taken((key) => first.includes(key));
  t.equal(second.length, 20, 'the scan fills its room');
  t.same(
    second.filter((key) => first.includes(key)),
    [],
    'with none of the resources in work',
  );
  t.same(
    sharedDueIndex(index, 'node a', 0, (key) => keys.indexOf(key) < 5)
      .dueBefore(now, 20)
      .map((entry) => entry.key),
    keys.slice(5, 25),
    'with no spread too',
  );
});
