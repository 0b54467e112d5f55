// The due scheduler in virtual time: due work is sent as room allows, and a scan that throws is
// logged, reported to Health and started again, with the due work still sent afterwards.
import pino from 'pino';
import t from 'tap';
import type { ResourceEvent } from '../../machines/resource.js';
import { Health } from '../../src/health.js';
import { startDueScheduler } from '../../src/resources/dueScheduler.js';
import type { DueWork } from '../../streams/dueWork.js';
import { VirtualTime } from '../collection/virtualTime.js';

function schedulerWorld(index: (now: number, limit: number) => DueWork[], inWork = 0) {
  const time = new VirtualTime();
  const health = new Health(time.now);
  const sent: Array<[string, ResourceEvent]> = [];
  const logged: Array<{ level: number; msg: string; err?: { message: string } }> = [];
  const subscription = startDueScheduler({
    index: { dueBefore: index },
    resourceHost: { send: async (key, event) => void sent.push([key, event]) },
    work: { size: inWork },
    maxInWork: 10,
    scanBatch: 4,
    scanMs: 25,
    restartDelayMs: 1_000,
    now: time.now,
    scheduler: time.scheduler,
    log: pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line)) }),
    health,
  });
  return { time, health, sent, logged, subscription };
}

const due = (name: string): DueWork => ({ key: `github/account/${name}`, dueAt: 0, event: 'RETRY_DUE' });

t.test('due scheduler - takes at most the scan batch and the room left in the work registry', async (t) => {
  const limits: number[] = [];
  const world = schedulerWorld((_now, limit) => {
    limits.push(limit);
    return [];
  }, 8);
  t.teardown(() => world.subscription.unsubscribe());
  await world.time.advance(0);
  t.same(limits, [2], 'room: 10 in work at most, 8 already');
});

t.test('due scheduler - a scan that throws is logged, reported, and scanning starts again', async (t) => {
  let scans = 0;
  const world = schedulerWorld(() => {
    scans++;
    if (scans === 1) throw new Error('MDB_CORRUPTED');
    return scans === 2 ? [due('a')] : [];
  });
  t.teardown(() => world.subscription.unsubscribe());
  await world.time.advance(0);
  t.same(
    world.logged.map((line) => [line.level, line.msg, line.err?.message]),
    [[50, 'due work scan failed; it restarts', 'MDB_CORRUPTED']],
  );
  t.same(
    world.health.problems().map((problem) => [problem.component, problem.message]),
    [['due work', 'due work scan failed: MDB_CORRUPTED']],
  );
  await world.time.advance(999);
  t.equal(scans, 1, 'no scan during the pause');
  await world.time.advance(1);
  t.equal(scans, 2, 'scanning again after the pause');
  t.same(world.sent, [['github/account/a', { type: 'RETRY_DUE', at: 1_000 }]]);
  t.ok(world.health.healthy, 'a good scan clears the problem');
  await world.time.advance(50);
  t.equal(scans, 4, 'and keeps its interval');
});
