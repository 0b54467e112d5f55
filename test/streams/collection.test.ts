// The collection pipeline in virtual time (docs/dependencies.md#rxjs): timeouts, pauses,
// budgets, batching and concurrency asserted to the exact millisecond.
import t, { type Test } from 'tap';
import { TestScheduler } from 'rxjs/testing';
import { collectResources, type SharedCallBudget } from '../../streams/collection.js';
import type { BreakerPolicy } from '../../streams/circuitBreaker.js';
import { dueWork } from '../../streams/dueWork.js';
import type { CallTurn } from '../../streams/platformGate.js';
import { InProcessPlatformPauses, type PlatformPause, type PlatformPauses } from '../../streams/platformPauses.js';
import {
  deferred,
  failed,
  found,
  notFound,
  rateLimited,
  type CallBudget,
  type CollectingPlatform,
  type CollectionOutcome,
  type CollectionResult,
  type PlatformCode,
  type ResourceRef,
} from '../../src/model.js';

/** Loose enough that only the breaker tests below open it. */
const breaker: BreakerPolicy = { failureThreshold: 5, cooldownMs: 30_000, maxCooldownMs: 600_000 };

const ok = found({ metrics: { followers: { value: 1, semantic: 'followers' } } });
/** Marks an answer that never comes. */
const hang = failed('never answers');

interface FakePlatform {
  calls: Array<{ at: number; identifiers: string[] }>;
  collector: CollectingPlatform;
}

/**
 * A collector answering after `delayMs` of virtual time. It returns a thenable that the
 * scheduler resolves, so the pipeline's promise handling runs inside virtual time.
 */
function fakePlatform(
  scheduler: TestScheduler,
  options: {
    budget?: Partial<CallBudget>;
    maxBatch?: number;
    delayMs?: number;
    answer?: (ref: ResourceRef, call: number) => CollectionOutcome | undefined;
    /** Fails every ref of a call that carries any ref this picks (a batch failing as a whole). */
    failsWholeBatch?: (ref: ResourceRef) => boolean;
  },
): FakePlatform {
  const calls: FakePlatform['calls'] = [];
  const collect = (refs: readonly ResourceRef[]) => {
    const call = calls.push({ at: scheduler.now(), identifiers: refs.map((ref) => ref.identifier) });
    return {
      // biome-ignore lint/suspicious/noThenProperty: a thenable is the point, so that the answer settles on the virtual clock
      then(resolve: (outcomes: CollectionOutcome[]) => void) {
        const whole = options.failsWholeBatch && refs.some(options.failsWholeBatch) ? failed('upstream 503') : undefined;
        const outcomes = refs.map((ref) => whole ?? options.answer?.(ref, call) ?? ok);
        if (outcomes.some((outcome) => outcome === hang)) return;
        scheduler.schedule(() => resolve(outcomes), options.delayMs ?? 0);
      },
    } as unknown as Promise<CollectionOutcome[]>;
  };
  return {
    calls,
    collector: {
      collector: { maxBatch: options.maxBatch ?? 1, collect },
      budget: { concurrency: 8, perMinute: Number.POSITIVE_INFINITY, ...options.budget },
    },
  };
}

function run(
  scheduler: TestScheduler,
  platforms: Partial<Record<PlatformCode, FakePlatform>>,
  demandMarbles: string,
  keys: Record<string, string>,
  expected: string,
  results: Record<string, CollectionResult>,
  options: {
    timeoutMs?: number;
    batchWindowMs?: number;
    breaker?: BreakerPolicy;
    pauses?: PlatformPauses;
    sharedBudget?: SharedCallBudget;
    /** Runs in virtual time beside the pipeline. */
    meanwhile?: () => void;
  } = {},
) {
  scheduler.run(({ cold, expectObservable }) => {
    options.meanwhile?.();
    const collectors = new Map(Object.entries(platforms).map(([code, fake]) => [code as PlatformCode, fake.collector]));
    const output = collectResources(cold(demandMarbles, keys), {
      collectors,
      scheduler,
      timeoutMs: options.timeoutMs ?? 1_000,
      batchWindowMs: options.batchWindowMs ?? 10,
      breaker: options.breaker ?? breaker,
      pauses: options.pauses,
      sharedBudget: options.sharedBudget,
    });
    expectObservable(output).toBe(expected, results);
  });
}

const newScheduler = (test: Test) => new TestScheduler((actual, expected) => test.same(actual, expected));

t.test('collection - a collector that does not answer times out as a failure', async (t) => {
  const scheduler = newScheduler(t);
  const github = fakePlatform(scheduler, { answer: () => hang });
  run(scheduler, { github }, 'a', { a: 'github/account/octocat' }, '1000ms a', {
    a: { key: 'github/account/octocat', outcome: failed('no answer within 1000 ms') },
  });
});

t.test('collection - outcomes arrive after the upstream answers, one per resource', async (t) => {
  const scheduler = newScheduler(t);
  const github = fakePlatform(scheduler, { delayMs: 5, answer: (ref) => (ref.identifier === 'missing' ? notFound : undefined) });
  run(scheduler, { github }, 'ab', { a: 'github/account/octocat', b: 'github/account/missing' }, '5ms a b', {
    a: { key: 'github/account/octocat', outcome: ok },
    b: { key: 'github/account/missing', outcome: notFound },
  });
  t.same(github.calls, [
    { at: 0, identifiers: ['octocat'] },
    { at: 1, identifiers: ['missing'] },
  ]);
});

t.test('collection - a rate limit pauses the platform until its reset, other platforms carry on', async (t) => {
  const scheduler = newScheduler(t);
  const github = fakePlatform(scheduler, { answer: (_ref, call) => (call === 1 ? rateLimited(300) : undefined) });
  const bluesky = fakePlatform(scheduler, {});
  run(
    scheduler,
    { github, bluesky },
    'a 9ms b 9ms c',
    { a: 'github/account/first', b: 'github/account/second', c: 'bluesky/account/alice.bsky.social' },
    'a 19ms c 279ms b',
    {
      a: { key: 'github/account/first', outcome: rateLimited(300) },
      b: { key: 'github/account/second', outcome: ok },
      c: { key: 'bluesky/account/alice.bsky.social', outcome: ok },
    },
  );
  t.same(
    github.calls.map((call) => call.at),
    [0, 300],
  );
  t.same(
    bluesky.calls.map((call) => call.at),
    [20],
  );
});

t.test(
  'collection - a rate limit is announced to the nodes sharing the pauses, and a pause heard from them holds calls already waiting',
  async (t) => {
    const scheduler = newScheduler(t);
    const pauses = new InProcessPlatformPauses(() => scheduler.now());
    const announced: PlatformPause[] = [];
    const github = fakePlatform(scheduler, {
      budget: { perMinute: 600 },
      answer: (_ref, call) => (call === 1 ? rateLimited(300) : undefined),
    });
    const bluesky = fakePlatform(scheduler, { budget: { perMinute: 600 } });
    run(
      scheduler,
      { github, bluesky },
      '(ab) 1000ms (cd)',
      { a: 'github/account/a', b: 'github/account/b', c: 'bluesky/account/c.bsky.social', d: 'bluesky/account/d.bsky.social' },
      'a 299ms b 703ms c 495ms d',
      {
        a: { key: 'github/account/a', outcome: rateLimited(300) },
        b: { key: 'github/account/b', outcome: ok },
        c: { key: 'bluesky/account/c.bsky.social', outcome: ok },
        d: { key: 'bluesky/account/d.bsky.social', outcome: ok },
      },
      {
        pauses,
        meanwhile: () => {
          pauses.paused.subscribe((pause) => announced.push(pause));
          // Another node ran into bluesky's limit after c was called and while d waited for its slot.
          scheduler.schedule(() => pauses.announce('bluesky', 1_500), 1_050);
        },
      },
    );
    t.same(announced, [
      { upstream: 'github', until: 300 },
      { upstream: 'bluesky', until: 1_500 },
    ]);
    t.same(
      github.calls.map((call) => call.at),
      [0, 300],
      'b, booked for 100 ms, waited for the end of the pause a ran into',
    );
    t.same(
      bluesky.calls.map((call) => call.at),
      [1_004, 1_500],
    );
  },
);

/**
 * A budget shared with other nodes that has `perWindow` calls left in each window of 1 s; its
 * answers settle on the virtual clock.
 */
function sharedBudget(scheduler: TestScheduler, perWindow: number): SharedCallBudget & { asked: number } {
  const taken = new Map<number, number>();
  const budget = {
    asked: 0,
    takeCall() {
      budget.asked++;
      const window = Math.floor(scheduler.now() / 1_000);
      const turn: CallTurn = (taken.get(window) ?? 0) < perWindow ? { taken: true } : { taken: false, retryAt: (window + 1) * 1_000 };
      if (turn.taken) taken.set(window, (taken.get(window) ?? 0) + 1);
      // biome-ignore lint/suspicious/noThenProperty: a thenable is the point, so that the answer settles on the virtual clock
      return { then: (resolve: (turn: CallTurn) => void) => scheduler.schedule(() => resolve(turn), 1) } as unknown as Promise<CallTurn>;
    },
  };
  return budget;
}

t.test('collection - with a shared budget each call takes its turn there, and waits for the next window when none is left', async (t) => {
  const scheduler = newScheduler(t);
  const github = fakePlatform(scheduler, { budget: { perMinute: 600 } });
  const keys = { a: 'github/account/a', b: 'github/account/b', c: 'github/account/c', d: 'github/account/d' };
  const shared = sharedBudget(scheduler, 2);
  run(
    scheduler,
    { github },
    '(abcd)',
    keys,
    '1ms a 99ms b 899ms c 99ms d',
    {
      a: { key: keys.a, outcome: ok },
      b: { key: keys.b, outcome: ok },
      c: { key: keys.c, outcome: ok },
      d: { key: keys.d, outcome: ok },
    },
    { sharedBudget: shared },
  );
  t.same(
    github.calls.map((call) => call.at),
    [1, 101, 1_001, 1_101],
    'spaced on this node, two a window in the cluster',
  );
});

t.test('collection - a platform without a budget (the emulator) takes nothing from the shared one', async (t) => {
  const scheduler = newScheduler(t);
  const github = fakePlatform(scheduler, {});
  const shared = sharedBudget(scheduler, 0);
  run(
    scheduler,
    { github },
    '(ab)',
    { a: 'github/account/a', b: 'github/account/b' },
    '(ab)',
    {
      a: { key: 'github/account/a', outcome: ok },
      b: { key: 'github/account/b', outcome: ok },
    },
    { sharedBudget: shared },
  );
  t.equal(shared.asked, 0);
});

t.test('collection - the request budget spaces calls evenly', async (t) => {
  const scheduler = newScheduler(t);
  const github = fakePlatform(scheduler, { budget: { perMinute: 600 } });
  run(scheduler, { github }, '(abc)', { a: 'github/account/a', b: 'github/account/b', c: 'github/account/c' }, 'a 99ms b 99ms c', {
    a: { key: 'github/account/a', outcome: ok },
    b: { key: 'github/account/b', outcome: ok },
    c: { key: 'github/account/c', outcome: ok },
  });
  t.same(
    github.calls.map((call) => call.at),
    [0, 100, 200],
  );
});

t.test('collection - concurrency bounds the calls in flight per platform', async (t) => {
  const scheduler = newScheduler(t);
  const github = fakePlatform(scheduler, { budget: { concurrency: 1 }, delayMs: 50 });
  run(scheduler, { github }, '(ab)', { a: 'github/account/a', b: 'github/account/b' }, '50ms a 49ms b', {
    a: { key: 'github/account/a', outcome: ok },
    b: { key: 'github/account/b', outcome: ok },
  });
  t.same(
    github.calls.map((call) => call.at),
    [0, 50],
  );
});

t.test('collection - batching platforms get up to maxBatch resources per call', async (t) => {
  const scheduler = newScheduler(t);
  const bluesky = fakePlatform(scheduler, { maxBatch: 3 });
  const keys = { a: 'bluesky/account/a.test', b: 'bluesky/account/b.test', c: 'bluesky/account/c.test', d: 'bluesky/account/d.test' };
  // bufferTime keeps a periodic timer: the demand must complete for virtual time to end.
  run(scheduler, { bluesky }, '(abcd) 20ms |', keys, '(abc) 5ms d 15ms |', {
    a: { key: keys.a, outcome: ok },
    b: { key: keys.b, outcome: ok },
    c: { key: keys.c, outcome: ok },
    d: { key: keys.d, outcome: ok },
  });
  t.same(bluesky.calls, [
    { at: 0, identifiers: ['a.test', 'b.test', 'c.test'] },
    { at: 10, identifiers: ['d.test'] },
  ]);
});

t.test('collection - a batch failing as a whole is split until the bad item fails alone; the others are collected', async (t) => {
  const scheduler = newScheduler(t);
  const bluesky = fakePlatform(scheduler, {
    maxBatch: 4,
    budget: { perMinute: 6_000 },
    failsWholeBatch: (ref) => ref.identifier.startsWith('flaky'),
  });
  const keys = { a: 'bluesky/account/a.test', b: 'bluesky/account/b.test', c: 'bluesky/account/c.test', f: 'bluesky/account/flaky.test' };
  // A full batch goes at once; calls then 10 ms apart (the budget): [a b c f] fails at 0,
  // [a b] at 10 succeeds, [c f] at 20 fails, [c] at 30 succeeds, [f] at 40 fails alone.
  run(scheduler, { bluesky }, '(abcf) 60ms |', keys, '10ms (ab) 16ms c 9ms f 25ms |', {
    a: { key: keys.a, outcome: ok },
    b: { key: keys.b, outcome: ok },
    c: { key: keys.c, outcome: ok },
    f: { key: keys.f, outcome: failed('upstream 503') },
  });
  t.same(bluesky.calls, [
    { at: 0, identifiers: ['a.test', 'b.test', 'c.test', 'flaky.test'] },
    { at: 10, identifiers: ['a.test', 'b.test'] },
    { at: 20, identifiers: ['c.test', 'flaky.test'] },
    { at: 30, identifiers: ['c.test'] },
    { at: 40, identifiers: ['flaky.test'] },
  ]);
});

t.test('collection - items of a batch that failed together are collected again in halves; the others keep their outcomes', async (t) => {
  const scheduler = newScheduler(t);
  // The first call fails the items a shared sub-call served (p and q); later calls succeed.
  const youtube = fakePlatform(scheduler, {
    maxBatch: 3,
    budget: { perMinute: 6_000 },
    answer: (ref, call) => (call === 1 && ref.identifier !== 'a' ? failed('upstream 503') : undefined),
  });
  const keys = { a: 'youtube/account/a', p: 'youtube/post/p', q: 'youtube/post/q' };
  run(scheduler, { youtube }, '(apq) 40ms |', keys, 'a 9ms p 9ms q 24ms |', {
    a: { key: keys.a, outcome: ok },
    p: { key: keys.p, outcome: ok },
    q: { key: keys.q, outcome: ok },
  });
  t.same(youtube.calls, [
    { at: 0, identifiers: ['a', 'p', 'q'] },
    { at: 10, identifiers: ['p'] },
    { at: 20, identifiers: ['q'] },
  ]);
});

t.test('collection - a batch that is rate limited as a whole is not split', async (t) => {
  const scheduler = newScheduler(t);
  const bluesky = fakePlatform(scheduler, { maxBatch: 4, answer: () => rateLimited(500) });
  const keys = { a: 'bluesky/account/a.test', b: 'bluesky/account/b.test' };
  run(scheduler, { bluesky }, '(ab) 20ms |', keys, '10ms (ab) 10ms |', {
    a: { key: keys.a, outcome: rateLimited(500) },
    b: { key: keys.b, outcome: rateLimited(500) },
  });
  t.equal(bluesky.calls.length, 1);
});

t.test('collection - calls the open breaker refuses are deferred to its next trial; observers hear it open and close', async (t) => {
  const scheduler = newScheduler(t);
  let healthy = false;
  const github = fakePlatform(scheduler, { budget: { concurrency: 1 }, answer: () => (healthy ? undefined : failed('upstream 503')) });
  const changes: unknown[] = [];
  const keys = { a: 'github/account/a', b: 'github/account/b', c: 'github/account/c', d: 'github/account/d' };
  scheduler.schedule(() => (healthy = true), 50);
  scheduler.run(({ cold, expectObservable }) => {
    const output = collectResources(cold('a 9ms b 9ms c 49ms d', keys), {
      collectors: new Map([['github', github.collector]]),
      scheduler,
      timeoutMs: 1_000,
      batchWindowMs: 10,
      breaker: { failureThreshold: 2, cooldownMs: 60, maxCooldownMs: 600 },
      onBreakerChange: (platform, change) => changes.push({ platform, ...change }),
    });
    // a and b fail (opens at 10 until 70); c at 20 is refused; d at 70 is the trial and succeeds.
    expectObservable(output).toBe('a 9ms b 9ms c 49ms d', {
      a: { key: keys.a, outcome: failed('upstream 503') },
      b: { key: keys.b, outcome: failed('upstream 503') },
      c: { key: keys.c, outcome: deferred(70, 'github paused by its circuit breaker after repeated failures') },
      d: { key: keys.d, outcome: ok },
    });
  });
  t.same(
    github.calls.map((call) => call.identifiers[0]),
    ['a', 'b', 'd'],
    'the refused call never reached the collector',
  );
  t.same(changes, [
    { platform: 'github', state: 'open', at: 10, trialAt: 70, failures: 2 },
    { platform: 'github', state: 'closed', at: 70 },
  ]);
});

/** A federated platform's fake: each identifier `user@host` names its server, an upstream of its own. */
function federated(fake: FakePlatform): FakePlatform {
  return { ...fake, collector: { ...fake.collector, hostOf: (identifier) => identifier.slice(identifier.indexOf('@') + 1) } };
}

t.test('collection - a federated server that keeps failing opens its own breaker; the platform and its other servers go on', async (t) => {
  const scheduler = newScheduler(t);
  const mastodon = federated(
    fakePlatform(scheduler, {
      budget: { concurrency: 1 },
      answer: (ref) => (ref.identifier.endsWith('@down.social') ? failed('upstream 503') : undefined),
    }),
  );
  const changes: unknown[] = [];
  const keys = {
    a: 'mastodon/account/a@down.social',
    b: 'mastodon/account/b@down.social',
    c: 'mastodon/account/c@down.social',
    d: 'mastodon/account/d@up.social',
    e: 'mastodon/account/e@up.social',
  };
  scheduler.run(({ cold, expectObservable }) => {
    const output = collectResources(cold('a 9ms b 9ms (cd) 9ms e', keys), {
      collectors: new Map([['mastodon', mastodon.collector]]),
      scheduler,
      timeoutMs: 1_000,
      batchWindowMs: 10,
      breaker: { failureThreshold: 2, cooldownMs: 60, maxCooldownMs: 600 },
      onBreakerChange: (platform, change, host) => changes.push({ platform, host, ...change }),
    });
    // a and b fail on down.social (its breaker opens at 10 until 70); c there is refused at 20,
    // while d and e on up.social are collected: its breaker never saw a failure.
    expectObservable(output).toBe('a 9ms b 9ms (cd) 9ms e', {
      a: { key: keys.a, outcome: failed('upstream 503') },
      b: { key: keys.b, outcome: failed('upstream 503') },
      c: { key: keys.c, outcome: deferred(70, 'mastodon/down.social paused by its circuit breaker after repeated failures') },
      d: { key: keys.d, outcome: ok },
      e: { key: keys.e, outcome: ok },
    });
  });
  t.same(
    mastodon.calls.map((call) => call.identifiers[0]),
    ['a@down.social', 'b@down.social', 'd@up.social', 'e@up.social'],
  );
  t.same(changes, [{ platform: 'mastodon', host: 'down.social', state: 'open', at: 10, trialAt: 70, failures: 2 }]);
});

t.test("collection - a federated server's rate limit pauses that server alone, and each server spends a budget of its own", async (t) => {
  const scheduler = newScheduler(t);
  const pauses = new InProcessPlatformPauses(() => scheduler.now());
  const announced: PlatformPause[] = [];
  const mastodon = federated(
    fakePlatform(scheduler, {
      budget: { perMinute: 600 },
      answer: (ref) => (ref.identifier === 'a@busy.social' ? rateLimited(500) : undefined),
    }),
  );
  const keys = {
    a: 'mastodon/account/a@busy.social',
    b: 'mastodon/account/b@busy.social',
    c: 'mastodon/account/c@calm.social',
    d: 'mastodon/account/d@calm.social',
  };
  // 600 a minute is a call every 100 ms per server: calm.social's two go at 0 and 100 whatever
  // busy.social does; busy.social's second waits for the end of its pause at 500.
  run(
    scheduler,
    { mastodon },
    '(abcd)',
    keys,
    '(ac) 96ms d 399ms b',
    {
      a: { key: keys.a, outcome: rateLimited(500) },
      b: { key: keys.b, outcome: ok },
      c: { key: keys.c, outcome: ok },
      d: { key: keys.d, outcome: ok },
    },
    { pauses, meanwhile: () => pauses.paused.subscribe((pause) => announced.push(pause)) },
  );
  t.same(announced, [{ upstream: 'mastodon/busy.social', until: 500 }], 'the pause names the server, not the platform');
  t.same(
    mastodon.calls.map(({ at, identifiers }) => [at, identifiers[0]]),
    [
      [0, 'a@busy.social'],
      [0, 'c@calm.social'],
      [100, 'd@calm.social'],
      [500, 'b@busy.social'],
    ],
  );
});

t.test('due work - each scan emits what is due by then, oldest first', async (t) => {
  const scheduler = newScheduler(t);
  const entries = [
    { key: 'github/account/a', dueAt: 0, event: 'RETRY_DUE' as const },
    { key: 'github/account/b', dueAt: 150, event: 'REFRESH_DUE' as const },
  ];
  const index = { dueBefore: (now: number, limit: number) => entries.filter((entry) => entry.dueAt <= now).slice(0, limit) };
  scheduler.run(({ expectObservable }) => {
    expectObservable(
      dueWork(index, 100, () => 10, scheduler),
      '^ 250ms !',
    ).toBe('a 99ms a 99ms (ab)', { a: entries[0], b: entries[1] });
  });
});

t.test('due work - a scan takes only what there is room for, and nothing when there is none', async (t) => {
  const scheduler = newScheduler(t);
  const entries = ['a', 'b', 'c'].map((name) => ({ key: `github/account/${name}`, dueAt: 0, event: 'RETRY_DUE' as const }));
  const index = { dueBefore: (_now: number, limit: number) => entries.slice(0, limit) };
  const rooms = [1, 0, 3];
  scheduler.run(({ expectObservable }) => {
    expectObservable(
      dueWork(index, 100, () => rooms.shift() ?? 0, scheduler),
      '^ 250ms !',
    ).toBe('a 199ms (abc)', {
      a: entries[0],
      b: entries[1],
      c: entries[2],
    });
  });
});
