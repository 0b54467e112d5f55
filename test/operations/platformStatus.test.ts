// The operator console's platform status (docs/operations.md#platform-status): counts fed by
// the collection pipeline, its collectors and its breakers, in virtual time.
import { type Observable, Subject } from 'rxjs';
import t from 'tap';
import { collectResources } from '../../streams/collection.js';
import { failed, found, notFound, rateLimited, type CollectionOutcome, type PlatformCode, type ResourceRef } from '../../src/model.js';
import type { CollectionResult } from '../../src/model.js';
import { PlatformStatusBoard, PostedPlatformStatus } from '../../src/operations/platformStatus.js';
import { VirtualTime } from '../collection/virtualTime.js';

const start = Date.UTC(2026, 10, 23, 12, 0, 30);
const budget = { concurrency: 4, perMinute: 120 };

function board(now: () => number, waiting = () => 0) {
  return new PlatformStatusBoard(
    [
      ['github', { budget }],
      [
        'x',
        { budget: { concurrency: 64, perMinute: Number.POSITIVE_INFINITY }, disabledReason: 'x needs X_BEARER_TOKEN in the environment' },
      ],
    ],
    now,
    waiting,
  );
}

const statusOf = (board: PlatformStatusBoard, platform: PlatformCode) =>
  board.snapshot().platforms.find((status) => status.platform === platform)!;

/** A pipeline the test answers by hand: keys in, results out when the test says. */
function handPipeline() {
  const results = new Subject<CollectionResult>();
  const keys: string[] = [];
  const collect = (keys$: Observable<string>) => {
    keys$.subscribe((key) => keys.push(key));
    return results.asObservable();
  };
  return { collect, results, keys };
}

t.test('platform status - at the start: enabled or why not, breaker closed, budgets, an hour of empty minutes', async (t) => {
  const clock = { now: start };
  const snapshot = board(
    () => clock.now,
    () => 7,
  ).snapshot();
  t.equal(snapshot.at, start);
  t.equal(snapshot.queueWaiting, 7);
  t.same(
    snapshot.platforms.map(({ platform, disabledReason, breaker, budget: used, collecting, lastErrors }) => ({
      platform,
      disabledReason,
      breaker,
      budget: used,
      collecting,
      lastErrors,
    })),
    [
      {
        platform: 'github',
        disabledReason: null,
        breaker: { state: 'closed', since: null, trialAt: null, failures: null },
        budget: { concurrency: 4, perMinute: 120, inFlight: 0, callsLastMinute: 0 },
        collecting: 0,
        lastErrors: [],
      },
      {
        platform: 'x',
        disabledReason: 'x needs X_BEARER_TOKEN in the environment',
        breaker: { state: 'closed', since: null, trialAt: null, failures: null },
        budget: { concurrency: 64, perMinute: null, inFlight: 0, callsLastMinute: 0 },
        collecting: 0,
        lastErrors: [],
      },
    ],
  );
  const minutes = snapshot.platforms[0]!.perMinute;
  t.equal(minutes.length, 60);
  t.equal(minutes.at(-1)!.minute, Date.UTC(2026, 10, 23, 12, 0), 'the last is the current minute');
  t.equal(minutes[0]!.minute, Date.UTC(2026, 10, 23, 11, 1), 'the first 59 minutes before it');
  t.same(minutes.at(-1), { minute: Date.UTC(2026, 10, 23, 12, 0), found: 0, notFound: 0, rateLimited: 0, failed: 0, deferred: 0 });
});

t.test('platform status - collections per minute by outcome, over the last 60 minutes only', async (t) => {
  const clock = { now: start };
  const status = board(() => clock.now);
  const pipeline = handPipeline();
  const keys = new Subject<string>();
  status.watched(pipeline.collect)(keys).subscribe();
  const collect = (key: string, outcome: CollectionOutcome) => {
    keys.next(key);
    pipeline.results.next({ key, outcome });
  };
  collect('github/account/a', found({ metrics: {}, attributes: {} }));
  collect('github/account/b', notFound);
  collect('x/account/c', found({ metrics: {}, attributes: {} }));
  clock.now += 60_000;
  collect('github/account/a', failed('upstream 503'));
  collect('github/account/a', failed('upstream 503'));
  const github = statusOf(status, 'github').perMinute;
  t.match(github.at(-2), { found: 1, notFound: 1, failed: 0 }, 'the minute before');
  t.match(github.at(-1), { found: 0, notFound: 0, failed: 2 }, 'this minute');
  t.match(statusOf(status, 'x').perMinute.at(-2), { found: 1 }, 'each platform its own');
  clock.now += 59 * 60_000;
  t.match(statusOf(status, 'github').perMinute[0], { minute: start - 30_000 + 60_000, failed: 2 }, 'an hour on: the oldest minute kept');
  t.equal(
    statusOf(status, 'github').perMinute.reduce((sum, minute) => sum + minute.found + minute.notFound, 0),
    0,
    'the minute an hour ago is gone',
  );
  clock.now += 60 * 60_000;
  collect('github/account/a', found({ metrics: {}, attributes: {} }));
  t.same(
    statusOf(status, 'github').perMinute.map((minute) => minute.found + minute.failed),
    [...Array(59).fill(0), 1],
    'a bucket reused after an hour starts from zero',
  );
});

t.test('platform status - the last 10 errors, newest first, with time, message and resource', async (t) => {
  const clock = { now: start };
  const status = board(() => clock.now);
  const pipeline = handPipeline();
  const keys = new Subject<string>();
  status.watched(pipeline.collect)(keys).subscribe();
  for (let index = 0; index < 12; index++) {
    keys.next(`github/account/u${index}`);
    pipeline.results.next({ key: `github/account/u${index}`, outcome: failed(`upstream ${500 + index}`) });
    clock.now += 1_000;
  }
  keys.next('github/account/limited');
  pipeline.results.next({ key: 'github/account/limited', outcome: rateLimited(Date.UTC(2026, 10, 23, 13)) });
  const errors = statusOf(status, 'github').lastErrors;
  t.equal(errors.length, 10);
  t.same(errors[0], { at: start + 12_000, resource: 'github/account/limited', message: 'rate limited until 2026-11-23T13:00:00.000Z' });
  t.same(errors[1], { at: start + 11_000, resource: 'github/account/u11', message: 'upstream 511' });
  t.same(errors[9], { at: start + 3_000, resource: 'github/account/u3', message: 'upstream 503' });
  t.same(statusOf(status, 'x').lastErrors, [], 'another platform has none');
});

t.test('platform status - resources out to a platform, also when a pipeline ends with some unanswered', async (t) => {
  const status = board(() => start);
  const pipeline = handPipeline();
  const keys = new Subject<string>();
  const watched = status.watched(pipeline.collect)(keys).subscribe();
  keys.next('github/account/a');
  keys.next('github/account/b');
  keys.next('x/account/c');
  t.equal(statusOf(status, 'github').collecting, 2);
  pipeline.results.next({ key: 'github/account/a', outcome: notFound });
  t.equal(statusOf(status, 'github').collecting, 1);
  t.equal(statusOf(status, 'x').collecting, 1);
  watched.unsubscribe();
  t.equal(statusOf(status, 'github').collecting, 0, 'a stopped pipeline answers nothing more');
  t.equal(statusOf(status, 'x').collecting, 0);
});

t.test('platform status - budget in use: calls in flight, and calls in the last 60 s', async (t) => {
  const clock = { now: start };
  const status = board(() => clock.now);
  const answers: Array<() => void> = [];
  const collector = status.counted('github', {
    maxBatch: 1,
    collect: (refs: readonly ResourceRef[]) =>
      new Promise<CollectionOutcome[]>((resolve) => answers.push(() => resolve(refs.map(() => notFound)))),
  });
  const ref: ResourceRef = { platform: 'github', type: 'account', identifier: 'a' };
  const signal = new AbortController().signal;
  const first = collector.collect([ref], signal);
  clock.now += 30_000;
  const second = collector.collect([ref], signal);
  t.match(statusOf(status, 'github').budget, { inFlight: 2, callsLastMinute: 2 });
  answers[0]!();
  t.same(await first, [notFound], 'the answer passes through');
  t.match(statusOf(status, 'github').budget, { inFlight: 1, callsLastMinute: 2 });
  clock.now += 30_000;
  t.match(statusOf(status, 'github').budget, { inFlight: 1, callsLastMinute: 1 }, 'the first call is a minute old');
  answers[1]!();
  await second;
  clock.now += 30_000;
  t.match(statusOf(status, 'github').budget, { inFlight: 0, callsLastMinute: 0 });
});

t.test('platform status - a real collection pipeline in virtual time: a failing platform opens its breaker', async (t) => {
  const time = new VirtualTime();
  const status = board(time.now);
  const breaker = { failureThreshold: 2, cooldownMs: 30_000, maxCooldownMs: 60_000 };
  const failing = status.counted('github', { maxBatch: 1, collect: async (refs) => refs.map(() => failed('upstream 503')) });
  const keys = new Subject<string>();
  const results: CollectionResult[] = [];
  status
    .watched((keys$) =>
      collectResources(keys$, {
        collectors: new Map([['github', { collector: failing, budget: { concurrency: 1, perMinute: Number.POSITIVE_INFINITY } }]]),
        scheduler: time.scheduler,
        timeoutMs: 10_000,
        batchWindowMs: 10,
        breaker,
        onBreakerChange: (platform, change) => status.breakerChanged(platform, change),
      }),
    )(keys)
    .subscribe((result) => results.push(result));
  for (const name of ['a', 'b', 'c']) keys.next(`github/account/${name}`);
  await time.advance(1);
  t.equal(results.length, 3);
  const github = statusOf(status, 'github');
  t.same(github.breaker, { state: 'open', since: 0, trialAt: 30_000, failures: 2 }, 'opened at the second failure, at virtual time 0');
  t.match(github.perMinute.at(-1), { failed: 2, deferred: 1 }, 'the third was refused by the open breaker');
  t.equal(github.lastErrors.length, 2, 'a deferral is no error');
  t.match(github.budget, { inFlight: 0, callsLastMinute: 2 }, 'the refused one made no call');
  t.equal(github.collecting, 0);
  t.same(
    [...status.breakerStates()],
    [
      ['github', 'open'],
      ['x', 'closed'],
    ],
  );
});

t.test('platform status - an edge keeps the snapshot posted last', async (t) => {
  const posted = new PostedPlatformStatus();
  t.equal(posted.snapshot(), undefined, 'nothing before the first post');
  const snapshot = board(() => start).snapshot();
  posted.take(structuredClone(snapshot));
  t.same(posted.snapshot(), snapshot, 'plain data: it crosses threads as it is');
});

t.test(
  'platform status - a federated server whose breaker opens is listed with why, bounded; the platform breaker stays closed',
  async (t) => {
    const clock = { now: start };
    const hostOf = (identifier: string) => identifier.slice(identifier.indexOf('@') + 1);
    const status = new PlatformStatusBoard(
      [['mastodon', { budget, hostOf }]],
      () => clock.now,
      () => 0,
    );
    const pipeline = handPipeline();
    status.watched(pipeline.collect)(new Subject<string>()).subscribe();
    pipeline.results.next({ key: 'mastodon/account/a@down.social', outcome: failed('unexpected upstream status 503') });
    pipeline.results.next({ key: 'mastodon/account/b@up.social', outcome: failed('socket hang up') });
    status.serverBreakerChanged('mastodon', 'down.social', { state: 'open', at: start, trialAt: start + 30_000, failures: 5 });
    const mastodon = () => statusOf(status, 'mastodon');
    t.same(mastodon().failingServers, [
      { host: 'down.social', since: start, trialAt: start + 30_000, failures: 5, lastError: 'unexpected upstream status 503' },
    ]);
    t.equal(mastodon().breaker.state, 'closed', "a server's breaker is not the platform's");
    pipeline.results.next({ key: 'mastodon/account/c@down.social', outcome: failed('no answer within 10000 ms') });
    t.equal(mastodon().failingServers[0]!.lastError, 'no answer within 10000 ms', 'the last error on the server, as it comes');

    for (let index = 0; index < 30; index++)
      status.serverBreakerChanged('mastodon', `s${index}.social`, {
        state: 'open',
        at: start + index,
        trialAt: start + 60_000,
        failures: 5,
      });
    const hosts = mastodon().failingServers.map(({ host }) => host);
    t.equal(hosts.length, 20, 'at most 20 servers are listed');
    t.same(hosts.slice(-2), ['s28.social', 's29.social'], 'the newest kept, oldest first');
    t.notOk(hosts.includes('down.social'), 'the server that opened first went first');
    status.serverBreakerChanged('mastodon', 's29.social', { state: 'closed', at: start + 90_000 });
    t.notOk(
      mastodon().failingServers.some(({ host }) => host === 's29.social'),
      'a server whose breaker closed is no longer listed',
    );
  },
);
