// Searches first (docs/architecture.md#searches-first): while the edges are busy, resource work
// pauses after each slice so that it takes at most what they leave, and never less than its
// minimum share; when they are idle it runs slice after slice and catches up. In virtual time:
// a loop whose turns and timers the test runs, and a clock each piece of work moves on.
import t from 'tap';
import { pauseAfter, SearchesFirstQueue, workShare } from '../../src/resources/searchesFirstQueue.js';

/** A virtual event loop: turns (setImmediate) run before timers, timers in time order. */
function virtualLoop() {
  let now = 0;
  let busy = 0;
  let turns: Array<() => void> = [];
  const timers: Array<{ at: number; run: () => void }> = [];
  return {
    clock: () => now,
    /** The thread works `ms`: the clock moves, and so does its busy time. */
    spend: (ms: number) => {
      now += ms;
      busy += ms;
    },
    busy: () => busy,
    nextTurn: (run: () => void) => void turns.push(run),
    later: (run: () => void, ms: number) => void timers.push({ at: now + ms, run }),
    /**
     * Runs turns and timers until the clock reaches `until` (or nothing is left), then sets it there if it is short of it. The
     * promise jobs of each callback run before the next, as in Node's loop (a real setImmediate
     * lets them: only the virtual clock tells time here).
     */
    async runUntil(until: number) {
      const settle = () => new Promise((resolve) => setImmediate(resolve));
      while (now < until) {
        if (turns.length > 0) {
          const these = turns;
          turns = [];
          for (const run of these) {
            run();
            await settle();
          }
          continue;
        }
        timers.sort((a, b) => a.at - b.at);
        const next = timers[0];
        if (!next || next.at >= until) break;
        timers.shift();
        now = Math.max(now, next.at);
        next.run();
        await settle();
      }
      now = Math.max(now, until);
    },
  };
}

/** A backlog of `count` pieces of `pieceMs` each; returns how many have run. */
function backlog(pace: SearchesFirstQueue, loop: ReturnType<typeof virtualLoop>, count: number, pieceMs: number) {
  let ran = 0;
  for (let index = 0; index < count; index++) {
    void pace.run(() => {
      ran++;
      loop.spend(pieceMs);
    });
  }
  return () => ran;
}

t.test('searches first - the policy: the share the edges leave, at least the minimum; the pause that keeps it', async (t) => {
  t.equal(workShare(0, 0.1), 1, 'idle edges: all of it');
  t.equal(workShare(0.5, 0.1), 0.5);
  t.equal(workShare(1, 0.1), 0.1, 'fully busy edges: the minimum');
  t.equal(workShare(0.95, 0.1), 0.1);
  t.equal(pauseAfter(1, 1), 0, 'no pause at a full share');
  t.equal(pauseAfter(1, 0.1), 9, 'a 1 ms slice at a tenth: 9 ms of pause');
  t.equal(pauseAfter(1, 0.5), 1);
  t.equal(pauseAfter(0.2, 0.8), 0, 'a pause under half a millisecond is not worth a timer');
  t.equal(pauseAfter(5_000, 0.1), 100, 'at most 100 ms, however long the thread was busy before');
});

t.test('searches first - busy edges: the backlog takes a tenth of the time; idle again: it catches up back to back', async (t) => {
  const loop = virtualLoop();
  let busy = 1;
  const pace = new SearchesFirstQueue(
    { sliceMs: 1, maxRunning: 1_000, minShare: 0.1 },
    { clock: loop.clock, nextTurn: loop.nextTurn, later: loop.later, busyMs: loop.busy, edgeLoad: () => busy },
  );
  // 0.25 ms a piece: a 1 ms slice runs 4 of them, then pauses 9 ms.
  const ran = backlog(pace, loop, 10_000, 0.25);
  await loop.runUntil(1_000);
  t.equal(ran(), 400, 'one second of busy edges: 100 ms of work, 400 pieces');
  busy = 0;
  await loop.runUntil(2_000);
  t.equal(ran(), 400 + 4_000, 'one second of idle edges: 1 s of work, 4,000 pieces');
});

t.test('searches first - half busy edges: the work takes half the time', async (t) => {
  const loop = virtualLoop();
  const pace = new SearchesFirstQueue(
    { sliceMs: 1, maxRunning: 1_000, minShare: 0.1 },
    { clock: loop.clock, nextTurn: loop.nextTurn, later: loop.later, busyMs: loop.busy, edgeLoad: () => 0.5 },
  );
  const ran = backlog(pace, loop, 10_000, 0.25);
  await loop.runUntil(1_000);
  t.equal(ran(), 2_000, '500 ms of work in one second');
});

t.test('searches first - idle edges: slice after slice in consecutive turns, no timer', async (t) => {
  const loop = virtualLoop();
  const pace = new SearchesFirstQueue(
    { sliceMs: 1, maxRunning: 1_000, minShare: 0.1 },
    {
      clock: loop.clock,
      nextTurn: loop.nextTurn,
      later: () => t.fail('no pause while the edges are idle'),
      busyMs: loop.busy,
      edgeLoad: () => 0,
    },
  );
  const ran = backlog(pace, loop, 4_000, 0.25);
  await loop.runUntil(1_000);
  t.equal(ran(), 4_000, 'the whole backlog, 1 s of work, in 1 s');
});

t.test('searches first - work that arrives piece by piece still pauses after each slice while the edges are busy', async (t) => {
  const loop = virtualLoop();
  const pace = new SearchesFirstQueue(
    { sliceMs: 1, maxRunning: 1_000, minShare: 0.1 },
    { clock: loop.clock, nextTurn: loop.nextTurn, later: loop.later, busyMs: loop.busy, edgeLoad: () => 1 },
  );
  let ran = 0;
  // Each piece takes 1 ms and queues the next when it runs: the queue is never more than one deep.
  const next = (): void =>
    void pace.run(() => {
      ran++;
      loop.spend(1);
      next();
    });
  next();
  await loop.runUntil(1_000);
  t.equal(ran, 100, '1 ms of work, 9 ms of pause: 100 pieces in a second');
});

t.test('searches first - what a slice sets off outside it counts against the share too', async (t) => {
  const loop = virtualLoop();
  const pace = new SearchesFirstQueue(
    { sliceMs: 1, maxRunning: 1_000, minShare: 0.1 },
    { clock: loop.clock, nextTurn: loop.nextTurn, later: loop.later, busyMs: loop.busy, edgeLoad: () => 1 },
  );
  // Each piece takes 0.25 ms in its slice and sets off 0.25 ms more a moment later (its
  // commit's callback, say): a slice of 4 and what follows it are 2 ms of work, so each slice
  // is followed by 18 ms of pause (the set-off work runs within it), not the 9 ms of a slice
  // alone. The first slice (at 0, 9 ms of pause: nothing set off yet), then one every 19 ms
  // from 10 ms on: 54 slices in the second.
  let ran = 0;
  for (let index = 0; index < 10_000; index++) {
    void pace.run(() => {
      ran++;
      loop.spend(0.25);
      loop.later(() => loop.spend(0.25), 0.1);
    });
  }
  await loop.runUntil(1_000);
  t.equal(ran, 216, '54 slices of 4');
  t.equal(loop.busy(), 108, 'the thread was busy 10.8% of the second, where slice time alone would have let it take 20%');
});
