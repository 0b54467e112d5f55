// Per-key single flight with a per-turn start limit: work for one key never overlaps, and
// each turn of the event loop starts at most what the pace allows at that turn.
import t from 'tap';
import { KeyedQueue } from '../../src/resources/keyedQueue.js';

const endOfTurn = () => new Promise((resolve) => setImmediate(resolve));

t.test('keyed queue - starts at most perTurn() pieces a turn, reading the pace every turn', async (t) => {
  const paces = [3, 1, 2];
  const startedBeforeTurn: number[] = [];
  const started: string[] = [];
  // The pace is read once at the start of each turn: record how much had started by then.
  const queue = new KeyedQueue((_key, error) => t.fail(String(error)), () => {
    startedBeforeTurn.push(started.length);
    return paces.shift() ?? 100;
  });
  for (let index = 0; index < 8; index++) void queue.run(`k${index}`, () => void started.push(`k${index}`));
  t.equal(queue.size, 8);
  await queue.drain();
  t.same(startedBeforeTurn, [0, 3, 4, 6], 'three, then one, then two, then the rest in the last turn');
  t.same(started, ['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7'], 'in the order they came');
  t.equal(queue.size, 0, 'finished keys are forgotten');
});

t.test('keyed queue - work for one key runs one piece after another, errors go to onError', async (t) => {
  const errors: Array<[string, unknown]> = [];
  const queue = new KeyedQueue((key, error) => errors.push([key, error]), () => Number.POSITIVE_INFINITY);
  const log: string[] = [];
  let release: (() => void) | undefined;
  const first = queue.run('a', () => new Promise<void>((resolve) => {
    log.push('a1 start');
    release = () => {
      log.push('a1 end');
      resolve();
    };
  }));
  const second = queue.run('a', () => void log.push('a2'));
  const failing = queue.run('b', () => {
    throw new Error('boom');
  });
  while (!release) await endOfTurn();
  await endOfTurn();
  t.same(log, ['a1 start'], 'the second piece for a waits for the first');
  release();
  await Promise.all([first, second, failing]);
  t.same(log, ['a1 start', 'a1 end', 'a2']);
  t.equal(errors.length, 1);
  t.equal(errors[0]![0], 'b');
  t.match(String(errors[0]![1]), /boom/);
});
