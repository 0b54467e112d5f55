// Quota by durable reservations and the rate limit, shared by every thread of a server
// (docs/guarantees.md#quota-and-rate-across-threads). Threads are simulated here by
// several Admissions on one SharedArrayBuffer; test/access/threads.test.ts uses real ones.
import t from 'tap';
import { account, decided, header, threadsOn, turns } from './admissionHarness.js';
import { MemoryLedger } from './memoryLedger.js';

const month = '2026-11';

t.test('admission - a slow account reserves one unit per request, and its answer waits for that write', async (t) => {
  const ledger = new MemoryLedger();
  ledger.hold = true;
  const { clock, admissions } = threadsOn(ledger, 1);
  const [admissions0] = admissions;
  const first = admissions0!.admit(account('acme', 5), clock.now);
  t.equal(first.kind, 'pending', 'nothing reserved yet: the request waits');
  let answered = false;
  void decided(first).then(() => (answered = true));
  await turns();
  t.same(ledger.writes, [['acme', month, 1]], 'one unit reserved');
  t.equal(answered, false, 'not admitted before the reservation landed');
  t.equal(ledger.land(), 1);
  const decision = await decided(first);
  t.equal(decision.kind, 'admitted');
  t.equal(header(decision, 'X-Quota-Remaining'), '4');
  clock.now += 10_000;
  const second = admissions0!.admit(account('acme', 5), clock.now);
  t.equal(second.kind, 'pending', 'a slow account holds nothing in reserve between requests');
  await turns();
  ledger.land();
  t.equal(header(await decided(second), 'X-Quota-Remaining'), '3');
  t.same(
    ledger.writes,
    [
      ['acme', month, 1],
      ['acme', month, 2],
    ],
    'stored usage is exactly the requests admitted',
  );
});

t.test('admission - a busy account reserves ahead, in blocks after its rate, never over maxBlock unspent', async (t) => {
  const ledger = new MemoryLedger();
  const maxBlock = 32;
  const { clock, admissions } = threadsOn(ledger, 3, { maxBlock, horizonMs: 50, waitMs: 1_000 });
  let admitted = 0;
  let waited = 0;
  for (let request = 0; request < 3_000; request++) {
    clock.now += 0.5;
    const admission = admissions[request % 3]!.admit(account('busy', null), clock.now);
    if (admission.kind === 'pending') waited++;
    if ((await decided(admission)).kind === 'admitted') admitted++;
    if (request % 10 === 0) await turns(1);
    const unspent = ledger.granted('busy', month) - admitted;
    if (unspent > maxBlock || unspent < 0) t.fail(`after ${admitted} admitted, ${unspent} units reserved and unspent`);
  }
  t.equal(admitted, 3_000);
  t.ok(waited < 20, `requests that waited for a reservation: ${waited} of 3000`);
  t.ok(ledger.writes.length < 3_000 / 8, `${ledger.writes.length} reservations for 3000 requests`);
  const blocks = ledger.writes.map(([, , granted], index) => granted - (ledger.writes[index - 1]?.[2] ?? 0));
  t.equal(blocks[0], 1, 'the first block is one unit: nothing is known of the account yet');
  const largest = Math.max(...blocks);
  t.ok(largest > maxBlock / 2 && largest <= maxBlock, `blocks grow with the rate, up to ${largest} units`);
});

t.test('admission - 1,000 concurrent requests at quota 100 over 8 threads admit exactly 100', async (t) => {
  const ledger = new MemoryLedger();
  const { clock, admissions } = threadsOn(ledger, 8);
  const decisions = await Promise.all(
    Array.from({ length: 1_000 }, (_, request) => decided(admissions[request % 8]!.admit(account('tiny', 100), clock.now))),
  );
  const admitted = decisions.filter((decision) => decision.kind === 'admitted');
  t.equal(admitted.length, 100);
  t.equal(decisions.filter((decision) => decision.kind === 'quotaExhausted').length, 900, 'every other request is a 403');
  t.equal(ledger.granted('tiny', month), 100, 'the ledger holds exactly the quota');
  const remaining = admitted.map((decision) => Number(header(decision, 'X-Quota-Remaining'))).sort((a, b) => a - b);
  t.same(
    remaining,
    Array.from({ length: 100 }, (_, index) => index),
    'X-Quota-Remaining counts down once per admitted request',
  );
  const refused = decisions.find((decision) => decision.kind === 'quotaExhausted');
  t.equal(refused && header(refused, 'X-Quota-Remaining'), '0');
});

t.test('admission - the rate limit is one window for all threads, its remaining count exact', async (t) => {
  const ledger = new MemoryLedger();
  const { clock, admissions } = threadsOn(ledger, 4);
  const rate = { limit: 10, windowMs: 60_000 };
  const decisions = await Promise.all(
    Array.from({ length: 40 }, (_, request) => decided(admissions[request % 4]!.admit(account('paced', null, rate), clock.now))),
  );
  const admitted = decisions.filter((decision) => decision.kind === 'admitted');
  t.equal(admitted.length, 10);
  t.same(
    admitted.map((decision) => Number(header(decision, 'X-RateLimit-Remaining'))).sort((a, b) => a - b),
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  );
  const limited = decisions.filter((decision) => decision.kind === 'rateLimited');
  t.equal(limited.length, 30);
  t.same(
    limited[0]!.kind === 'rateLimited' && limited[0]!.retryAfterSeconds,
    Math.ceil((Date.UTC(2026, 10, 23, 12, 1) - clock.now) / 1000),
  );
  clock.now += 60_000;
  t.equal((await decided(admissions[2]!.admit(account('paced', null, rate), clock.now))).kind, 'admitted', 'the next window starts afresh');
  t.equal(ledger.granted('paced', month), 11, 'rate-limited requests are never counted against the quota');
});

t.test('admission - quota is checked before the rate limit (docs/api.md#a-45)', async (t) => {
  const ledger = new MemoryLedger();
  const { clock, admissions } = threadsOn(ledger, 2);
  const limited = account('both', 2, { limit: 2, windowMs: 60_000 });
  for (let request = 0; request < 2; request++) t.equal((await decided(admissions[request]!.admit(limited, clock.now))).kind, 'admitted');
  const refused = await decided(admissions[0]!.admit(limited, clock.now));
  t.equal(refused.kind, 'quotaExhausted', 'both exhausted: 403, not 429');
  t.equal(header(refused, 'X-RateLimit-Remaining'), '0');
});

t.test('admission - a reservation that cannot be written fails the requests waiting for it, not the next ones', async (t) => {
  const ledger = new MemoryLedger();
  const { clock, admissions } = threadsOn(ledger, 2);
  ledger.failNext = new Error('MDB_MAP_FULL');
  const waiting = [admissions[0]!.admit(account('acme', 5), clock.now), admissions[1]!.admit(account('acme', 5), clock.now)];
  for (const admission of waiting) await t.rejects(decided(admission), /could not be written/);
  t.equal(ledger.granted('acme', month), 0);
  t.equal((await decided(admissions[1]!.admit(account('acme', 5), clock.now))).kind, 'admitted', 'the next request reserves again');
  t.equal(ledger.granted('acme', month), 1);
});

t.test('admission - a clean stop gives reserved, unspent units back', async (t) => {
  const ledger = new MemoryLedger();
  const { clock, admissions } = threadsOn(ledger, 2, { maxBlock: 16, horizonMs: 100, waitMs: 1_000 });
  let admitted = 0;
  for (let request = 0; request < 200; request++) {
    clock.now += 1;
    if ((await decided(admissions[request % 2]!.admit(account('busy', null), clock.now))).kind === 'admitted') admitted++;
    await turns(1);
  }
  t.ok(ledger.granted('busy', month) > admitted, `${ledger.granted('busy', month) - admitted} units held in reserve while running`);
  await admissions[0]!.returnUnspent();
  t.equal(ledger.granted('busy', month), admitted, 'after the stop the ledger holds the requests admitted');
});

t.test('admission - a new month starts from what the ledger holds for it', async (t) => {
  const ledger = new MemoryLedger();
  await ledger.swap('acme', '2026-12', 0, 7);
  const { clock, admissions } = threadsOn(ledger, 1);
  t.equal((await decided(admissions[0]!.admit(account('acme', 10), clock.now))).kind, 'admitted');
  clock.now = Date.UTC(2026, 11, 1);
  const december = await decided(admissions[0]!.admit(account('acme', 10), clock.now));
  t.equal(header(december, 'X-Quota-Remaining'), '2', 'December had 7 counted already');
  t.equal(header(december, 'X-Quota-Reset'), '2027-01-01');
});

t.test('admission - an account beyond the table gets no room, the others keep theirs', async (t) => {
  const { clock, admissions } = threadsOn(new MemoryLedger(), 1, undefined, 2);
  t.equal((await decided(admissions[0]!.admit(account('one', null), clock.now))).kind, 'admitted');
  t.equal((await decided(admissions[0]!.admit(account('two', null), clock.now))).kind, 'admitted');
  t.same(admissions[0]!.admit(account('three', null), clock.now), { kind: 'noRoom' });
  t.equal((await decided(admissions[0]!.admit(account('one', null), clock.now))).kind, 'admitted');
});

t.test('admission - a suspended account is refused before its slot, and nothing is counted (docs/api.md#a-53)', async (t) => {
  const ledger = new MemoryLedger();
  const { clock, table, admissions } = threadsOn(ledger, 1, undefined, 2);
  const suspended = { ...account('held', 5), suspended: { at: new Date(clock.now).toISOString(), reason: 'unpaid' } };
  for (let request = 0; request < 3; request++) t.same(admissions[0]!.admit(suspended, clock.now), { kind: 'suspended' });
  t.same([...table.claimed()], [], 'no slot of the table was taken');
  await turns();
  t.same(ledger.writes, [], 'no quota was reserved');
  const { suspended: _lifted, ...resumed } = suspended;
  const decision = await decided(admissions[0]!.admit(resumed, clock.now));
  t.equal(decision.kind, 'admitted', 'once resumed it is admitted');
  t.equal(header(decision, 'X-Quota-Remaining'), '4', 'the refused requests counted nothing');
});
