// The per-platform circuit breaker in virtual time (docs/dependencies.md#rxjs), and
// once through the collection stream, where a paused platform's collector is not called.
import t, { type Test } from 'tap';
import { defer, firstValueFrom, mergeMap, of, Subject, take, takeUntil, timer, toArray, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { CircuitBreaker, type BreakerPolicy } from '../../streams/circuitBreaker.js';
import { collectResources } from '../../streams/collection.js';
import { type CollectingPlatform, failed, found, type PlatformCode } from '../../src/model.js';
import { VirtualTime } from '../collection/virtualTime.js';

const policy: BreakerPolicy = { failureThreshold: 2, cooldownMs: 10, maxCooldownMs: 40 };
const isFailure = (value: string) => value === 'f';
const refused = () => 'r';

function virtualTime(t: Test) {
  return new TestScheduler((actual, expected) => t.same(actual, expected));
}

/** Each trigger letter runs its own call through the breaker, concurrently. */
function through(breaker: CircuitBreaker, triggers: Observable<string>, calls: Record<string, Observable<string>>) {
  return triggers.pipe(mergeMap((letter) => breaker.guard(calls[letter]!, isFailure, refused)));
}

t.test('circuit breaker - opens after the threshold of consecutive failures and refuses without calling', (t) => {
  const scheduler = virtualTime(t);
  scheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
    const breaker = new CircuitBreaker(policy, scheduler);
    const probe = cold('-s|');
    const calls = { a: cold('-f|'), b: cold('-f|'), c: probe };
    expectObservable(through(breaker, hot('a--b--c'), calls)).toBe('-f--f-r');
    expectSubscriptions(probe.subscriptions).toBe([]);
  });
  t.end();
});

t.test('circuit breaker - a success in between resets the count of consecutive failures', (t) => {
  const scheduler = virtualTime(t);
  scheduler.run(({ cold, hot, expectObservable }) => {
    const breaker = new CircuitBreaker(policy, scheduler);
    const calls = { a: cold('-f|'), b: cold('-s|'), c: cold('-f|'), d: cold('-s|') };
    expectObservable(through(breaker, hot('a-b-c-d'), calls)).toBe('-f-s-f-s');
  });
  t.end();
});

t.test('circuit breaker - after the cooldown one trial probes; others are refused until it answers; success resumes', (t) => {
  const scheduler = virtualTime(t);
  scheduler.run(({ cold, hot, expectObservable }) => {
    const breaker = new CircuitBreaker(policy, scheduler);
    // Opens at 4 until 14; c at 14 is the trial (answers at 17); d at 15 is refused; e at 18 goes.
    const calls = { a: cold('-f|'), b: cold('-f|'), c: cold('---s|'), d: cold('-s|'), e: cold('-s|') };
    expectObservable(through(breaker, hot('a 2ms b 10ms cd 2ms e'), calls)).toBe('-f--f 10ms r-s-s');
  });
  t.end();
});

t.test('circuit breaker - a failed trial pauses again for twice as long', (t) => {
  const scheduler = virtualTime(t);
  scheduler.run(({ cold, hot, expectObservable }) => {
    const breaker = new CircuitBreaker(policy, scheduler);
    // Opens at 4 until 14; trial c fails at 15: open until 35; d at 34 refused, e at 35 is the next trial.
    const calls = { a: cold('-f|'), b: cold('-f|'), c: cold('-f|'), d: cold('-s|'), e: cold('-s|') };
    expectObservable(through(breaker, hot('a 2ms b 10ms c 19ms de'), calls)).toBe('-f--f 10ms f 18ms r-s');
  });
  t.end();
});

t.test('circuit breaker - the cooldown doubles per failed trial up to its cap', (t) => {
  const scheduler = virtualTime(t);
  const calledAt: number[] = [];
  scheduler.run(({ hot }) => {
    const breaker = new CircuitBreaker(policy, scheduler);
    const failing = defer(() => {
      calledAt.push(scheduler.now());
      return of('f');
    });
    hot('a'.repeat(200))
      .pipe(mergeMap(() => breaker.guard(failing, isFailure, refused)))
      .subscribe();
  });
  // Open at 1 for 10, then 20, 40, and 40 again (the cap).
  t.same(calledAt, [0, 1, 11, 31, 71, 111, 151, 191]);
  t.end();
});

t.test('circuit breaker - a trial cancelled before it answers lets the next call probe', (t) => {
  const scheduler = virtualTime(t);
  scheduler.run(({ cold, hot, expectObservable }) => {
    const breaker = new CircuitBreaker(policy, scheduler);
    const cancelledTrial = cold('-----s|').pipe(takeUntil(timer(2, scheduler)));
    // Opens at 4 until 14; the trial c is cancelled at 16; d at 17 is a new trial and resumes.
    const calls = { a: cold('-f|'), b: cold('-f|'), c: cancelledTrial, d: cold('-s|') };
    expectObservable(through(breaker, hot('a 2ms b 10ms c 2ms d'), calls)).toBe('-f--f 13ms s');
  });
  t.end();
});

t.test('circuit breaker - answers of calls already in flight when it opened do not move it', (t) => {
  const scheduler = virtualTime(t);
  scheduler.run(({ cold, hot, expectObservable }) => {
    const breaker = new CircuitBreaker(policy, scheduler);
    // a and b fail at 1 and 2 (open until 12); c, sent at 2, succeeds at 3 but the breaker stays open.
    const calls = { a: cold('-f|'), b: cold('-f|'), c: cold('-s|'), d: cold('-s|') };
    expectObservable(through(breaker, hot('abc-d'), calls)).toBe('-ffsr');
  });
  t.end();
});

t.test('circuit breaker - a failing platform stops being called by the collection stream, then is probed once', async (t) => {
  // Virtual time that lets the collector's promises settle between steps: the cooldown is waited out on its clock.
  const time = new VirtualTime();
  const calls: number[] = [];
  let healthy = false;
  const collector: CollectingPlatform = {
    budget: { concurrency: 1, perMinute: Number.POSITIVE_INFINITY },
    collector: {
      maxBatch: 1,
      collect: async (refs) => {
        calls.push(time.now());
        return refs.map(() => (healthy ? found({ metrics: {} }) : failed('upstream 503')));
      },
    },
  };
  const demand = new Subject<string>();
  const results = firstValueFrom(
    collectResources(demand, {
      collectors: new Map<PlatformCode, CollectingPlatform>([['github', collector]]),
      scheduler: time.scheduler,
      timeoutMs: 1_000,
      batchWindowMs: 1,
      breaker: { failureThreshold: 3, cooldownMs: 150, maxCooldownMs: 1_000 },
    }).pipe(take(7), toArray()),
  );
  for (let i = 0; i < 5; i++) demand.next(`github/account/user${i}`);
  await time.advance(200);
  healthy = true;
  demand.next('github/account/trial');
  demand.next('github/account/after');
  await time.advance(10);
  const outcomes = (await results).map((result) => result.outcome);
  t.equal(calls.length, 5, 'three failed calls, then no call while paused, then the trial and one more');
  const paused = 'github paused by its circuit breaker after repeated failures';
  t.same(
    outcomes.slice(3, 5).map((outcome) => outcome.kind === 'deferred' && outcome.reason),
    [paused, paused],
    'refused calls are deferred, not failed',
  );
  t.same(
    outcomes.slice(5).map((outcome) => outcome.kind),
    ['found', 'found'],
  );
  t.ok(calls[3]! >= 150, `the trial waited for the cooldown (${calls[3]} ms)`);
});
