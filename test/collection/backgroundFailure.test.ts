// No background failure ends the process unannounced (docs/architecture.md#when-background-work-fails): a store that throws once under the due scan or under a collection result is
// logged and reported in Health, and the service keeps answering searches and collecting.
import pino from 'pino';
import t from 'tap';
import { ResourceStore } from '../../src/store/resourceStore.js';
import { eventually, startTestService } from '../helpers/service.js';

interface LogLine {
  level: number;
  msg: string;
  err?: { message: string };
}

function capturingLog() {
  const lines: LogLine[] = [];
  return { lines, log: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }) };
}

const github = (identifier: string) => ({ platform: 'github', type: 'account', identifier });

t.test('background failure - a due scan that throws is logged and reported, and the service keeps answering and collecting', async (t) => {
  const dueBefore = ResourceStore.prototype.dueBefore;
  let thrown = 0;
  ResourceStore.prototype.dueBefore = function (now, limit, after) {
    if (thrown++ === 0) throw new Error('MDB_BAD_TXN: transaction must abort');
    return dueBefore.call(this, now, limit, after);
  };
  t.teardown(() => {
    ResourceStore.prototype.dueBefore = dueBefore;
  });
  const { lines, log } = capturingLog();
  const ts = await startTestService(t, { log });
  const token = await ts.tokenFor('acme', { plan: 'paid' });

  const failure = lines.find((line) => line.msg === 'due work scan failed; it restarts');
  t.equal(failure?.err?.message, 'MDB_BAD_TXN: transaction must abort', 'logged with its cause');
  t.same(
    ts.service.health.problems().map((problem) => problem.component),
    ['due work'],
    'reported in Health',
  );

  const first = await ts.search(token, { resources: [github('octocat')] });
  t.equal(first.status, 200, 'searches are answered meanwhile');
  t.equal(first.body.data[0].status, 'pending');
  const collected = await eventually(
    () => ts.search(token, { resources: [github('octocat')] }),
    (answer) => answer.body.data[0].status === 'available',
  );
  t.equal(collected.body.data[0].status, 'available', 'and collection goes on');
  const healed = await eventually(
    async () => ts.service.health.healthy,
    (healthy) => healthy,
    3_000,
  );
  t.equal(healed, true, 'the scan restarts and clears the problem');
});

t.test(
  'background failure - a collection result the store refuses is logged and reported, and the resource is collected again',
  async (t) => {
    const commit = ResourceStore.prototype.commit;
    let refused = 0;
    ResourceStore.prototype.commit = function (key, ...rest) {
      // The creation commits; the first outcome's commit is refused.
      if (key === 'github/account/octocat' && rest[0] !== undefined && refused++ === 0) return Promise.reject(new Error('MDB_MAP_FULL'));
      return commit.call(this, key, ...rest);
    };
    t.teardown(() => {
      ResourceStore.prototype.commit = commit;
    });
    const { lines, log } = capturingLog();
    // A short lease, so that the persisted lease brings the resource back within the test.
    const ts = await startTestService(t, { log, policy: { leaseMs: 500 } });
    const token = await ts.tokenFor('acme', { plan: 'paid' });

    t.equal((await ts.search(token, { resources: [github('octocat')] })).status, 200);
    const failure = await eventually(
      async () => lines.find((line) => line.msg.startsWith('collection result for')),
      (line) => line !== undefined,
    );
    t.equal(failure?.msg, 'collection result for github/account/octocat not recorded');
    t.equal(failure?.err?.message, 'MDB_MAP_FULL');
    t.same(
      ts.service.health.problems().map((problem) => problem.component),
      ['collection outcomes'],
    );
    const collected = await eventually(
      () => ts.search(token, { resources: [github('octocat')] }),
      (answer) => answer.body.data[0].status === 'available',
    );
    t.equal(collected.body.data[0].status, 'available', 'collected again once its lease ended');
    t.ok(ts.service.health.healthy, 'the recorded result clears the problem');
  },
);

t.test('background failure - a platform that keeps failing opens its breaker, and its opening and closing are logged', async (t) => {
  const { lines, log } = capturingLog();
  // One failed call opens the breaker; the trial comes 200 ms later.
  const ts = await startTestService(t, { log, breaker: { failureThreshold: 1, cooldownMs: 200, maxCooldownMs: 200 } });
  const token = await ts.tokenFor('acme', { plan: 'paid' });

  await ts.search(token, { resources: [github('flakyone')] });
  const opened = await eventually(
    async () => lines.find((line) => line.msg === 'circuit breaker open'),
    (line) => line !== undefined,
  );
  t.match(opened, { level: 40, platform: 'github', state: 'open' }, 'the opening is a warning naming the platform');

  // The next collection after the cooldown is the trial; it succeeds and closes the breaker.
  await eventually(
    async () => (await ts.search(token, { resources: [github(`octo${Date.now()}`)] })).body.data[0].status,
    (status) => status === 'available',
  );
  const closed = await eventually(
    async () => lines.find((line) => line.msg === 'circuit breaker closed'),
    (line) => line !== undefined,
  );
  t.match(closed, { level: 40, platform: 'github', state: 'closed' });
});
