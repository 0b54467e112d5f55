// A platform whose collections fail is said so (docs/operations.md#collection-failing): a warn
// line per platform at most once a minute with its counts and last reason, and the platform
// status marked failing until a collection succeeds. Injected clock; an upstream that refuses.
import { createServer } from 'node:net';
import pino from 'pino';
import { Subject } from 'rxjs';
import t from 'tap';
import { failed, found, type CollectionOutcome, type ResourceRef } from '../../src/model.js';
import { PlatformStatusBoard } from '../../src/operations/platformStatus.js';
import { createCollectors } from '../../src/platforms/collectors.js';
import { createUpstreamHttp } from '../../src/platforms/http.js';

const start = Date.UTC(2026, 10, 26, 22, 0, 0);

function watchedBoard(now: () => number) {
  const lines: Array<Record<string, unknown>> = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const board = new PlatformStatusBoard(
    [
      ['github', { budget: { concurrency: 4, perMinute: 120 } }],
      ['bluesky', { budget: { concurrency: 4, perMinute: 120 } }],
    ],
    now,
    () => 0,
  );
  board.warnOnFailures(log, 60_000);
  const ended = new Subject<{ key: string; outcome: CollectionOutcome }>();
  const keys = new Subject<string>();
  board
    .watched(() => ended.asObservable())(keys)
    .subscribe();
  const end = (key: string, outcome: CollectionOutcome) => {
    keys.next(key);
    ended.next({ key, outcome });
  };
  const failing = (platform: string) => board.snapshot().platforms.find((status) => status.platform === platform)!.failing;
  return { lines, end, failing };
}

t.test('collection failing - one warn line per platform at most once a minute, with counts and the last reason', async (t) => {
  const clock = { now: start };
  const { lines, end, failing } = watchedBoard(() => clock.now);
  const reason = 'request failed: getaddrinfo ENOTFOUND api.github.com';

  end('github/account/octocat', found({ metrics: {}, attributes: {} }));
  t.same(lines, [], 'a success says nothing');
  t.equal(failing('github'), null);

  clock.now = start + 1_000;
  end('github/account/a', failed(reason));
  t.same(
    lines.map(({ level, platform, attempts, failures, since, lastReason, msg }) => ({
      level,
      platform,
      attempts,
      failures,
      since,
      lastReason,
      msg,
    })),
    [
      {
        level: 40,
        platform: 'github',
        attempts: 2,
        failures: 1,
        since: '2026-11-26T22:00:00.000Z',
        lastReason: reason,
        msg: `collection failing on github: 1 of 2 collection(s) failed since 2026-11-26T22:00:00.000Z; last: ${reason}`,
      },
    ],
    'the first failure is told at once',
  );
  t.same(failing('github'), { since: start + 1_000, failures: 1, lastError: reason });

  for (let second = 2; second < 61; second++) {
    clock.now = start + second * 1_000;
    end(`github/account/r${second}`, failed(`${reason} (${second})`));
  }
  t.equal(lines.length, 1, 'nothing more within the minute');
  end('bluesky/account/alice.bsky.social', failed('connect ECONNREFUSED 127.0.0.1:9'));
  t.equal(lines.length, 2, 'another platform is told on its own');
  t.equal(lines[1]!.platform, 'bluesky');

  clock.now = start + 61_000;
  end('github/account/last', failed(reason));
  t.equal(lines.length, 3, 'a minute after the last warning, the next');
  t.match(lines[2], {
    platform: 'github',
    attempts: 60,
    failures: 60,
    since: '2026-11-26T22:00:01.000Z',
    msg: `collection failing on github: 60 of 60 collection(s) failed since 2026-11-26T22:00:01.000Z; last: ${reason}`,
  });
  t.same(failing('github'), { since: start + 1_000, failures: 61, lastError: reason });

  end('github/account/octocat', found({ metrics: {}, attributes: {} }));
  t.equal(failing('github'), null, 'a success ends the failing state');
  t.same(failing('bluesky'), { since: start + 61_000 - 1_000, failures: 1, lastError: 'connect ECONNREFUSED 127.0.0.1:9' });
});

t.test('collection failing - a collector against an upstream that refuses connections is told with the reason', async (t) => {
  // A port that was free a moment ago and now nobody listens on: connections are refused.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const http = createUpstreamHttp();
  t.teardown(() => http.close());
  const collector = createCollectors(`http://127.0.0.1:${port}`, {}, http, Date.now).get('github')!.collector;
  const ref: ResourceRef = { platform: 'github', type: 'account', identifier: 'octocat' };
  const [outcome] = await collector.collect([ref], new AbortController().signal);
  t.equal(outcome!.kind, 'failed');

  const { lines, end, failing } = watchedBoard(() => start);
  end('github/account/octocat', outcome!);
  t.equal(lines.length, 1);
  t.match(
    lines[0]!.msg,
    /^collection failing on github: 1 of 1 collection\(s\) failed since 2026-11-26T22:00:00\.000Z; last: .*ECONNREFUSED/,
  );
  t.match(failing('github'), { failures: 1, lastError: /ECONNREFUSED/ });
});
