// The rate limit across the nodes of a cluster (docs/design/cluster.md#rate-limit-across-nodes):
// each node admits a request in a window only from units it reserved for that window from the
// cluster's ledger, never more than the limit in all. Nodes are simulated here by Admissions on
// separate tables sharing in-memory ledgers; test/cluster/clusterRate.system.test.ts runs real ones.
import t from 'tap';
import { windowPeriod } from '../../src/seams/quotaLedger/quotaLedger.js';
import type { QuotaLedger } from '../../src/seams/quotaLedger/quotaLedger.js';
import { account, clusterOn, decided, header, november, turns } from './admissionHarness.js';
import { MemoryLedger } from './memoryLedger.js';

const minute = 60_000;
/** The window `november` (12:00 UTC) falls in, and the one after it. */
const window = windowPeriod(minute, november);
const nextWindow = windowPeriod(minute, november + minute);
const paced = (limit: number) => account('paced', null, { limit, windowMs: minute });

t.test('cluster rate - 1,000 concurrent requests over three nodes of two threads admit at most the limit', async (t) => {
  const rateLedger = new MemoryLedger();
  const { clock, admissions } = clusterOn(new MemoryLedger(), rateLedger, 3, 2);
  const threads = admissions.flat();
  const decisions = await Promise.all(
    Array.from({ length: 1_000 }, (_, request) => decided(threads[request % threads.length]!.admit(paced(50), clock.now))),
  );
  const admitted = decisions.filter((decision) => decision.kind === 'admitted');
  t.ok(admitted.length <= 50, `${admitted.length} admitted in the window, at most the limit of 50 (each node alone: 150)`);
  t.equal(rateLedger.granted('paced', window), 50, 'the ledger granted the whole window, no more');
  t.equal(admitted.length, 50, 'and every unit granted was spent: requests were waiting for them');
  t.equal(decisions.filter((decision) => decision.kind === 'rateLimited').length, 1_000 - admitted.length, 'every other request is a 429');
  const limited = decisions.find((decision) => decision.kind === 'rateLimited');
  t.equal(limited && header(limited, 'X-RateLimit-Remaining'), '0');
  t.equal(limited?.kind === 'rateLimited' && limited.retryAfterSeconds, 60, 'Retry-After: until the window ends');

  clock.now += minute;
  t.equal((await decided(threads[4]!.admit(paced(50), clock.now))).kind, 'admitted', 'the next window starts afresh');
  t.equal(rateLedger.granted('paced', nextWindow), 1, 'from its own entry');
});

t.test('cluster rate - X-RateLimit-Remaining is what the window has left as the node last learned', async (t) => {
  const rateLedger = new MemoryLedger();
  const { clock, admissions } = clusterOn(new MemoryLedger(), rateLedger, 2, 1);
  const [[a], [b]] = admissions as [[(typeof admissions)[0][0]], [(typeof admissions)[0][0]]];
  const remaining: string[] = [];
  for (let request = 0; request < 5; request++) {
    clock.now += 1_000;
    remaining.push(header(await decided(a.admit(paced(50), clock.now)), 'X-RateLimit-Remaining')!);
  }
  t.same(remaining, ['49', '48', '47', '46', '45'], 'one node alone counts down by one');
  t.same(rateLedger.writes.length, 5, 'a slow account reserves one unit of the window per request');
  clock.now += 1_000;
  t.equal(
    header(await decided(b.admit(paced(50), clock.now)), 'X-RateLimit-Remaining'),
    '44',
    "the other node counts the first one's five",
  );
  clock.now += 1_000;
  t.equal(
    header(await decided(a.admit(paced(50), clock.now)), 'X-RateLimit-Remaining'),
    '43',
    "and the first node learns of the other's one",
  );
});

t.test('cluster rate - a busy account reserves the window in blocks after its rate, never over maxBlock unspent', async (t) => {
  const rateLedger = new MemoryLedger();
  const maxBlock = 32;
  const { clock, admissions } = clusterOn(new MemoryLedger(), rateLedger, 3, 1, { maxBlock, horizonMs: 50, waitMs: 1_000 });
  let admitted = 0;
  for (let request = 0; request < 3_000; request++) {
    clock.now += 0.5;
    if ((await decided(admissions[request % 3]![0]!.admit(paced(100_000), clock.now))).kind === 'admitted') admitted++;
    if (request % 10 === 0) await turns(1);
    const unspent = rateLedger.granted('paced', window) - admitted;
    if (unspent > 3 * maxBlock || unspent < 0) t.fail(`after ${admitted} admitted, ${unspent} units of the window reserved and unspent`);
  }
  t.equal(admitted, 3_000);
  t.ok(rateLedger.writes.length < 3_000 / 8, `${rateLedger.writes.length} reservations of the window for 3000 requests`);
});

t.test('cluster rate - with the ledger out of reach, units in hand are spent, then requests fail, never uncounted', async (t) => {
  const rateLedger = new MemoryLedger();
  const { clock, admissions } = clusterOn(new MemoryLedger(), rateLedger, 1, 1, { maxBlock: 16, horizonMs: 100, waitMs: 1_000 });
  const [[node]] = admissions as [[(typeof admissions)[0][0]]];
  for (let request = 0; request < 40; request++) {
    clock.now += 1;
    await decided(node.admit(paced(1_000), clock.now));
    await turns(1);
  }
  const held = rateLedger.granted('paced', window) - 40;
  t.ok(held > 0, `${held} units of the window held when the ledger goes`);
  rateLedger.down = new Error('NATS: timeout');
  let admitted = 0;
  let failed = 0;
  for (let request = 0; request < held + 5; request++) {
    clock.now += 1;
    try {
      if ((await decided(node.admit(paced(1_000), clock.now))).kind === 'admitted') admitted++;
    } catch (error) {
      t.match(error, /could not be written/);
      failed++;
    }
  }
  t.equal(admitted, held, 'every unit in hand is spent');
  t.equal(failed, 5, 'then every request fails (answered 503, docs/api.md#a-39)');
  rateLedger.down = undefined;
  t.equal((await decided(node.admit(paced(1_000), clock.now))).kind, 'admitted', 'and admits again once the ledger is back');
});

t.test('cluster rate - units reserved for a window that ended meanwhile are not spent in the next', async (t) => {
  const rateLedger = new MemoryLedger();
  const { clock, admissions } = clusterOn(new MemoryLedger(), rateLedger, 1, 1);
  const [[node]] = admissions as [[(typeof admissions)[0][0]]];
  clock.now = november + minute - 10;
  rateLedger.hold = true;
  const late = node.admit(paced(50), clock.now);
  t.equal(late.kind, 'pending');
  await turns();
  clock.now = november + minute + 10;
  rateLedger.hold = false;
  t.equal(rateLedger.land(), 1, 'the reservation of the old window lands in the new one');
  const decision = await decided(late);
  t.equal(decision.kind, 'admitted');
  t.equal(header(decision, 'X-RateLimit-Reset'), String((november + 2 * minute) / 1000), 'in the new window');
  t.same([rateLedger.granted('paced', window), rateLedger.granted('paced', nextWindow)], [1, 1], 'from a unit reserved for the new window');
});

t.test('cluster rate - a clean stop gives the running window its unspent units back', async (t) => {
  const rateLedger = new MemoryLedger();
  const { clock, admissions } = clusterOn(new MemoryLedger(), rateLedger, 1, 2, { maxBlock: 16, horizonMs: 100, waitMs: 1_000 });
  let admitted = 0;
  for (let request = 0; request < 200; request++) {
    clock.now += 1;
    if ((await decided(admissions[0]![request % 2]!.admit(paced(100_000), clock.now))).kind === 'admitted') admitted++;
    await turns(1);
  }
  t.ok(rateLedger.granted('paced', window) > admitted, 'units of the window held in reserve while running');
  await admissions[0]![0]!.returnUnspent();
  t.equal(rateLedger.granted('paced', window), admitted, 'after the stop the window holds the requests admitted');
});

t.test('cluster rate - an account with a quota of 0 is refused for its quota, and reserves nothing of the window', async (t) => {
  const rateLedger = new MemoryLedger();
  // A read that answers on a later turn of the event loop, as over a network.
  const memory = new MemoryLedger();
  const remote: QuotaLedger = {
    read: (name, period) => new Promise((resolve) => setTimeout(() => resolve(memory.read(name, period)), 5)),
    swap: (name, period, revision, granted) => memory.swap(name, period, revision, granted),
  };
  const { clock, admissions } = clusterOn(remote, rateLedger, 1, 1);
  const none = account('none', 0, { limit: 50, windowMs: minute });
  for (let request = 0; request < 3; request++) t.equal((await decided(admissions[0]![0]!.admit(none, clock.now))).kind, 'quotaExhausted');
  t.same(rateLedger.writes, [], 'no unit of the window taken from the other nodes');
});
