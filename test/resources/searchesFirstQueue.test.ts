// The pace of resource work: queued pieces run in slices of at most `sliceMs` per turn of the
// event loop (at least one piece a turn), at most `maxRunning` unfinished at once (up to
// `idleMaxRunning` while the edges are idle), in the order they came (work that finishes before
// work that starts), settling as the work does.
import t from 'tap';
import { runningRoom, SearchesFirstQueue } from '../../src/resources/searchesFirstQueue.js';

/** A loop whose turns the test runs by hand, and a clock each piece of work moves on. */
function manualLoop() {
  const turns: Array<() => void> = [];
  let now = 0;
  return {
    clock: () => now,
    spend: (ms: number) => {
      now += ms;
    },
    nextTurn: (run: () => void) => void turns.push(run),
    /** Runs the next turn; returns false when none is scheduled. */
    turn: () => {
      const run = turns.shift();
      run?.();
      return run !== undefined;
    },
  };
}

t.test('work pace - a turn runs pieces until its slice is used, the rest in later turns', async (t) => {
  const loop = manualLoop();
  const pace = new SearchesFirstQueue({ sliceMs: 1, maxRunning: 100 }, { clock: loop.clock, nextTurn: loop.nextTurn });
  const ran: number[][] = [];
  let current: number[] = [];
  // Each piece takes 0.4 ms: a 1 ms slice fits three (0, 0.4, 0.8 started under 1 ms).
  const pieces = Array.from({ length: 7 }, (_, index) =>
    pace.run(() => {
      current.push(index);
      loop.spend(0.4);
    }),
  );
  t.equal(pace.waiting, 7, 'nothing runs in the turn that queued it');
  while (loop.turn()) {
    ran.push(current);
    current = [];
  }
  t.same(ran, [[0, 1, 2], [3, 4, 5], [6]]);
  t.equal(pace.waiting, 0);
  await Promise.all(pieces);
});

t.test('work pace - a piece longer than the slice still runs, one a turn', async (t) => {
  const loop = manualLoop();
  const pace = new SearchesFirstQueue({ sliceMs: 1, maxRunning: 100 }, { clock: loop.clock, nextTurn: loop.nextTurn });
  const ran: string[] = [];
  for (const name of ['a', 'b'])
    void pace.run(() => {
      ran.push(name);
      loop.spend(5);
    });
  loop.turn();
  t.same(ran, ['a']);
  loop.turn();
  t.same(ran, ['a', 'b']);
});

t.test('work pace - finishing work runs before starting work queued earlier; each kind in the order it came', async (t) => {
  const loop = manualLoop();
  const pace = new SearchesFirstQueue({ sliceMs: 1, maxRunning: 100 }, { clock: loop.clock, nextTurn: loop.nextTurn });
  const ran: string[] = [];
  const piece = (name: string) => () => {
    ran.push(name);
    loop.spend(0.6);
  };
  void pace.run(piece('due 1'), 'starting');
  void pace.run(piece('due 2'), 'starting');
  void pace.run(piece('outcome 1'));
  void pace.run(piece('outcome 2'), 'finishing');
  loop.turn();
  t.same(ran, ['outcome 1', 'outcome 2'], 'the first slice takes both outcomes, though the due steps came first');
  void pace.run(piece('outcome 3'));
  loop.turn();
  t.same(ran.slice(2), ['outcome 3', 'due 1'], 'an outcome queued meanwhile still goes first');
  loop.turn();
  t.same(ran.slice(4), ['due 2']);
  t.equal(pace.waiting, 0);
});

t.test('work pace - each run settles as its work does', async (t) => {
  const loop = manualLoop();
  const pace = new SearchesFirstQueue({ sliceMs: 1, maxRunning: 100 }, { clock: loop.clock, nextTurn: loop.nextTurn });
  const value = pace.run(async () => undefined);
  const thrown = pace.run(() => {
    throw new Error('step failed');
  });
  const rejected = pace.run(() => Promise.reject(new Error('commit failed')));
  loop.turn();
  await t.resolves(value);
  await t.rejects(thrown, { message: 'step failed' });
  await t.rejects(rejected, { message: 'commit failed' });
});

t.test('work pace - at most maxRunning pieces are unfinished at once; one finishing lets the next start', async (t) => {
  const loop = manualLoop();
  const pace = new SearchesFirstQueue({ sliceMs: 1_000, maxRunning: 2 }, { clock: loop.clock, nextTurn: loop.nextTurn });
  const finishers: Array<() => void> = [];
  const started: number[] = [];
  const pieces = Array.from({ length: 4 }, (_, index) =>
    pace.run(
      () =>
        new Promise<void>((resolve) => {
          started.push(index);
          finishers.push(resolve);
        }),
    ),
  );
  while (loop.turn());
  t.same(started, [0, 1], 'two running, the others wait, and no turn is scheduled for them');
  finishers[0]!();
  await pieces[0];
  while (loop.turn());
  t.same(started, [0, 1, 2], 'one finished: one more starts');
  for (const finish of finishers.slice(1)) finish();
  await Promise.all(pieces.slice(1, 3));
  while (loop.turn());
  finishers[3]!();
  await Promise.all(pieces);
  t.same(started, [0, 1, 2, 3]);
  t.equal(pace.waiting, 0);
});

t.test('work pace - the room for unfinished pieces shrinks from idleMaxRunning to maxRunning as the edges get busy', async (t) => {
  const limits = { sliceMs: 1, maxRunning: 64, idleMaxRunning: 256 };
  t.same(
    [0, 0.25, 0.5, 1, 1.5, -1].map((busy) => runningRoom(busy, limits)),
    [256, 208, 160, 64, 64, 256],
  );
  t.equal(runningRoom(0, { sliceMs: 1, maxRunning: 64 }), 64, 'no idle room given: maxRunning always');
  t.equal(runningRoom(0, { sliceMs: 1, maxRunning: 64, idleMaxRunning: 16 }), 64, 'never below maxRunning');
});

t.test('work pace - idleMaxRunning unfinished while the edges are idle, maxRunning once a slice reads them busy', async (t) => {
  const loop = manualLoop();
  let edgeLoad = 0;
  const pace = new SearchesFirstQueue(
    { sliceMs: 1_000, maxRunning: 2, idleMaxRunning: 6 },
    { clock: loop.clock, nextTurn: loop.nextTurn, edgeLoad: () => edgeLoad },
  );
  const finishers: Array<() => void> = [];
  const pieces = Array.from({ length: 10 }, () => pace.run(() => new Promise<void>((resolve) => finishers.push(resolve))));
  while (loop.turn());
  t.equal(finishers.length, 6, 'edges idle: six started');
  edgeLoad = 1;
  finishers[0]!();
  await pieces[0];
  while (loop.turn());
  t.equal(finishers.length, 7, 'one finished: one more starts in a slice, which reads the edges busy');
  for (const finish of finishers.slice(1, 5)) finish();
  await Promise.all(pieces.slice(1, 5));
  while (loop.turn());
  t.equal(finishers.length, 7, 'five of the seven finished: two are unfinished, none more starts while the edges are busy');
  edgeLoad = 0;
  finishers[5]!();
  await pieces[5];
  while (loop.turn());
  t.equal(finishers.length, 10, 'one finished: a slice starts one, reads the edges idle, and the next turn starts the rest');
  for (const finish of finishers.slice(6)) finish();
  await Promise.all(pieces);
  t.equal(pace.waiting, 0);
});

t.test('work pace - with the real event loop, other callbacks run between slices', async (t) => {
  const pace = new SearchesFirstQueue({ sliceMs: 1, maxRunning: 16 });
  const order: string[] = [];
  const busy = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };
  const pieces = Array.from({ length: 4 }, (_, index) =>
    pace.run(() => {
      order.push(`piece ${index}`);
      busy(2);
    }),
  );
  setImmediate(() => order.push('other callback'));
  await Promise.all(pieces);
  t.same(order.slice(0, 2), ['piece 0', 'other callback'], 'a callback queued meanwhile runs after the first slice');
});
