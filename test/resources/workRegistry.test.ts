// The work registry: steps for one resource run one after another, a resource is in work while
// a step is queued or it is being collected, counted once, and forgotten when neither holds.
import t from 'tap';
import { SearchesFirstQueue } from '../../src/resources/searchesFirstQueue.js';
import { WorkRegistry } from '../../src/resources/workRegistry.js';

const newRegistry = () => new WorkRegistry(new SearchesFirstQueue({ sliceMs: 1, maxRunning: 16 }));

t.test('work registry - steps for one resource run in order, a failing one does not stop the next', async (t) => {
  const work = newRegistry();
  const log: string[] = [];
  let release!: () => void;
  const first = work.step(
    'a',
    () =>
      new Promise<void>((resolve) => {
        log.push('a1 start');
        release = () => {
          log.push('a1 end');
          resolve();
        };
      }),
  );
  const failing = work.step('a', () => {
    throw new Error('boom');
  });
  const third = work.step('a', () => void log.push('a3'));
  const other = work.step('b', () => void log.push('b1'));
  await other;
  t.same(log, ['a1 start', 'b1'], 'b does not wait for a');
  t.equal(work.size, 1);
  release();
  await first;
  await t.rejects(failing, { message: 'boom' });
  await third;
  t.same(log, ['a1 start', 'b1', 'a1 end', 'a3']);
  t.equal(work.size, 0, 'forgotten once no step is queued');
});

t.test('work registry - a resource being stepped and collected is one resource in work', async (t) => {
  const work = newRegistry();
  t.equal(work.claimCollection('a'), true);
  t.equal(work.claimCollection('a'), false, 'never claimed twice');
  const step = work.step('a', () => undefined);
  t.same([work.size, work.collecting, work.has('a')], [1, 1, true]);
  await step;
  t.same([work.size, work.has('a')], [1, true], 'still collected');
  work.releaseCollection('a');
  t.same([work.size, work.collecting, work.has('a')], [0, 0, false]);
  work.releaseCollection('a');
  t.equal(work.collecting, 0, 'releasing twice counts nothing');
});

t.test('work registry - drain waits for steps queued meanwhile, not for collections', async (t) => {
  const work = newRegistry();
  const log: string[] = [];
  work.claimCollection('c');
  void work.step('a', () => {
    log.push('a');
    void work.step('b', () => void log.push('b'));
  });
  await work.drain();
  t.same(log, ['a', 'b']);
  t.equal(work.size, 1, 'the collection is still in work');
});
