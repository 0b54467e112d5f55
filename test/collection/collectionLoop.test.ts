// The collection loop in virtual time, over the in-process queue, the real collection pipeline
// (streams/collection.ts) and the work registry: what it releases when, how much it takes, what
// it aborts, how it survives a failing pipeline and what a stop leaves behind.
import pino from 'pino';
import { map, type Observable } from 'rxjs';
import t, { type Test } from 'tap';
import { collectResources } from '../../streams/collection.js';
import { startCollectionLoop } from '../../src/collection/collectionLoop.js';
import type { CollectionResult } from '../../src/model.js';
import { InProcessCollectionQueue } from '../../src/seams/collection/inProcessQueue.js';
import type { OutcomeSink } from '../../src/seams/collection/ports.js';
import { Health } from '../../src/health.js';
import { collectionDefaults } from '../../src/config.js';
import { failed, found, type CollectionOutcome } from '../../src/model.js';
import type { PlatformCollector } from '../../src/platforms/collectors.js';
import { SearchesFirstQueue } from '../../src/resources/searchesFirstQueue.js';
import { WorkRegistry } from '../../src/resources/workRegistry.js';
import { VirtualTime } from './virtualTime.js';

const leaseMs = 60_000;
const timeoutMs = 1_000;
const restartDelayMs = 1_000;
const collected = found({ metrics: { followers: { value: 1, semantic: 'followers' } } });
const key = (name: string) => `github/account/${name}`;

interface Options {
  /** Virtual milliseconds until the platform answers for an identifier; Infinity: never. */
  answerAfterMs?(identifier: string): number;
  maxCollecting?: number;
  leaseMs?: number;
  sink?: Partial<OutcomeSink>;
  /** Wraps the collection pipeline (to make it fail). */
  wrapCollect?(
    collect: (keys: Observable<string>) => Observable<CollectionResult>,
  ): (keys: Observable<string>) => Observable<CollectionResult>;
}

function loopWorld(t: Test, options: Options = {}) {
  const time = new VirtualTime();
  const queue = new InProcessCollectionQueue(options.leaseMs ?? leaseMs, time.now);
  const work = new WorkRegistry(new SearchesFirstQueue({ sliceMs: 1, maxRunning: 16 }));
  const health = new Health(time.now);
  const calls: Array<{ identifier: string; at: number; signal: AbortSignal }> = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const github: PlatformCollector = {
    budget: { concurrency: 64, perMinute: Number.POSITIVE_INFINITY },
    collector: {
      maxBatch: 1,
      collect(refs, signal) {
        const identifier = refs[0]!.identifier;
        calls.push({ identifier, at: time.now(), signal });
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        const delay = options.answerAfterMs?.(identifier) ?? 100;
        signal.addEventListener('abort', () => inFlight--);
        return new Promise<CollectionOutcome[]>((resolve) => {
          if (Number.isFinite(delay))
            time.scheduler.schedule(() => {
              inFlight--;
              resolve([collected]);
            }, delay);
        });
      },
    },
  };
  const delivered: Array<{ key: string; outcome: CollectionOutcome; at: number }> = [];
  const abandoned: string[] = [];
  const sink: OutcomeSink = {
    deliver: options.sink?.deliver ?? (async (resource, outcome) => void delivered.push({ key: resource, outcome, at: time.now() })),
    abandoned: options.sink?.abandoned ?? (async (resource) => void abandoned.push(resource)),
  };
  const logged: Array<{ level: number; msg: string }> = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
  const collect = (keys: Observable<string>) =>
    collectResources(keys, {
      collectors: new Map([['github', github]]),
      scheduler: time.scheduler,
      timeoutMs,
      batchWindowMs: 10,
      breaker: collectionDefaults.breaker,
    });
  const loop = startCollectionLoop({
    queue,
    sink,
    claims: work,
    collect: options.wrapCollect ? options.wrapCollect(collect) : collect,
    maxCollecting: options.maxCollecting ?? 100,
    pollMs: 5_000,
    restartDelayMs,
    scheduler: time.scheduler,
    log,
    health,
  });
  t.teardown(() => {
    const stopped = loop.stop(0);
    void time.advance(0);
    return stopped;
  });
  return { time, queue, work, health, calls, delivered, abandoned, logged, loop, mostInFlight: () => mostInFlight };
}

t.test('collection loop - a collected result is delivered, then the resource is released and its lease acknowledged', async (t) => {
  const world = loopWorld(t);
  await world.queue.request(key('a'));
  await world.time.advance(0);
  t.same(
    world.calls.map((call) => [call.identifier, call.at]),
    [['a', 0]],
  );
  t.equal(world.work.collecting, 1);
  t.ok(world.work.has(key('a')), 'in work while collected');
  await world.time.advance(100);
  t.same(world.delivered, [{ key: key('a'), outcome: collected, at: 100 }]);
  t.equal(world.work.collecting, 0);
  t.notOk(world.work.has(key('a')), 'released on its outcome');
  await world.time.advance(leaseMs * 2);
  t.equal(world.calls.length, 1, 'acknowledged: never delivered again');
});

t.test('collection loop - a call that times out is aborted upstream, delivered as a failure and released', async (t) => {
  const world = loopWorld(t, { answerAfterMs: () => Number.POSITIVE_INFINITY });
  await world.queue.request(key('a'));
  await world.time.advance(timeoutMs - 1);
  t.same(world.delivered, []);
  t.equal(world.calls[0]!.signal.aborted, false, 'not aborted before the timeout');
  t.equal(world.work.collecting, 1);
  await world.time.advance(1);
  t.equal(world.calls[0]!.signal.aborted, true, 'the upstream call is aborted at the timeout');
  t.same(world.delivered, [{ key: key('a'), outcome: failed(`no answer within ${timeoutMs} ms`), at: timeoutMs }]);
  t.equal(world.work.collecting, 0, 'released on timeout');
  t.same(world.logged.filter((line) => line.msg === 'collection failed').length, 1, 'the failure is logged');
});

t.test('collection loop - a result that cannot be recorded is logged and reported, and the resource released', async (t) => {
  let failures = 1;
  const recorded: string[] = [];
  const world = loopWorld(t, {
    sink: {
      deliver: async (resource) => {
        if (failures-- > 0) throw new Error('disk full');
        recorded.push(resource);
      },
    },
  });
  await world.queue.request(key('a'));
  await world.time.advance(100);
  t.equal(world.work.collecting, 0, 'released on error');
  t.notOk(world.work.has(key('a')));
  const errors = world.logged.filter((line) => line.level === 50);
  t.same(
    errors.map((line) => line.msg),
    [`collection result for ${key('a')} not recorded`],
  );
  t.same(
    world.health.problems().map((problem) => [problem.component, problem.message]),
    [['collection outcomes', `collection result for ${key('a')} not recorded: disk full`]],
  );
  await world.time.advance(leaseMs * 2);
  t.equal(world.calls.length, 1, 'not collected again at once: the persisted lease brings it back later');
  await world.queue.request(key('b'));
  await world.time.advance(100);
  t.same(recorded, [key('b')]);
  t.ok(world.health.healthy, 'a recorded result clears the problem');
});

t.test('collection loop - room is counted once per resource and never exceeded', async (t) => {
  const world = loopWorld(t, { maxCollecting: 2 });
  for (const name of ['a', 'b', 'c']) await world.queue.request(key(name));
  await world.time.advance(0);
  t.same(
    world.calls.map((call) => call.identifier),
    ['a', 'b'],
    'two at once',
  );
  t.equal(world.work.collecting, 2);
  await world.queue.request(key('a'));
  await world.time.advance(50);
  t.same(
    world.calls.map((call) => call.identifier),
    ['a', 'b'],
    'a second request for a resource in collection joins it',
  );
  await world.time.advance(50);
  t.same(
    world.calls.map((call) => [call.identifier, call.at]),
    [
      ['a', 0],
      ['b', 0],
      ['c', 100],
    ],
    'c starts when room frees',
  );
  await world.time.advance(100);
  t.same(
    world.delivered.map((entry) => entry.key),
    [key('a'), key('b'), key('c')],
    'each delivered once',
  );
  t.equal(world.mostInFlight(), 2);
  t.equal(world.work.collecting, 0);
  t.equal(world.work.size, 0);

  // A resource collected and stepped at the same time is one resource in work.
  t.equal(world.work.claimCollection(key('d')), true);
  const step = world.work.step(key('d'), () => undefined);
  t.equal(world.work.size, 1);
  t.equal(world.work.claimCollection(key('d')), false, 'never claimed twice');
  await step;
  world.work.releaseCollection(key('d'));
  t.equal(world.work.size, 0);
});

t.test('collection loop - a lease delivered again while its collection is still out is acknowledged, not collected twice', async (t) => {
  const world = loopWorld(t, { leaseMs: 500, answerAfterMs: (identifier) => (identifier === 'a' ? 800 : 100) });
  await world.queue.request(key('a'));
  await world.time.advance(600);
  await world.queue.request(key('b'));
  await world.time.advance(0);
  t.same(
    world.calls.map((call) => call.identifier),
    ['a', 'b'],
    'the expired lease of a came back with b and was not collected again',
  );
  await world.time.advance(200);
  t.same(
    world.delivered.map((entry) => [entry.key, entry.at]),
    [
      [key('b'), 700],
      [key('a'), 800],
    ],
  );
  await world.time.advance(5_000);
  t.equal(world.calls.length, 2, 'nothing left to deliver again');
});

t.test('collection loop - a failing pipeline is logged, reported, started again, and its work redelivered', async (t) => {
  let runs = 0;
  const world = loopWorld(t, {
    wrapCollect: (collect) => (keys) => {
      runs++;
      if (runs === 1)
        return keys.pipe(
          map((): CollectionResult => {
            throw new Error('collector registry lost github');
          }),
        );
      return collect(keys);
    },
  });
  await world.queue.request(key('a'));
  await world.time.advance(0);
  t.same(
    world.logged.filter((line) => line.level === 50).map((line) => line.msg),
    ['collection pipeline failed; it restarts'],
  );
  t.same(
    world.health.problems().map((problem) => problem.component),
    ['collection'],
  );
  t.equal(world.work.collecting, 0, 'released when the pipeline fails');
  await world.time.advance(restartDelayMs - 1);
  t.equal(world.calls.length, 0, 'nothing collected while the pipeline is down');
  await world.time.advance(1);
  t.same(
    world.calls.map((call) => [call.identifier, call.at]),
    [['a', restartDelayMs]],
    'given back and taken again after the restart',
  );
  await world.time.advance(100);
  t.same(
    world.delivered.map((entry) => entry.key),
    [key('a')],
  );
  t.ok(world.health.healthy, 'cleared once a result is recorded');
});

t.test('collection loop - a stop finishes what answers within the grace and gives back the rest', async (t) => {
  const world = loopWorld(t, { answerAfterMs: (identifier) => (identifier === 'slow' ? Number.POSITIVE_INFINITY : 1_000) });
  world.loop; // started by loopWorld
  await world.queue.request(key('quick'));
  await world.queue.request(key('slow'));
  await world.time.advance(0);
  let stopped = false;
  const stop = world.loop.stop(800).then(() => (stopped = true));
  await world.queue.request(key('late'));
  await world.time.advance(799);
  t.equal(stopped, false);
  t.same(
    world.calls.map((call) => call.identifier),
    ['quick', 'slow'],
    'nothing new is taken once stopping',
  );
  await world.time.advance(1);
  await stop;
  t.same(world.abandoned.sort(), [key('quick'), key('slow')], 'both still out at the end of the grace are given back');
  t.ok(
    world.calls.every((call) => call.signal.aborted),
    'their upstream calls are aborted',
  );
  t.equal(world.work.collecting, 0);
  const again = await world.queue.take(10);
  t.same(again.map((lease) => [lease.key, lease.delivery]).sort(), [
    [key('late'), 1],
    [key('quick'), 2],
    [key('slow'), 2],
  ]);
});
