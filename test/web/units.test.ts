// The dashboard's parts on their own: escaping, cookies, scrypt, sessions, CSRF, the sign-in
// throttle, the machine's drawing and the live events' framing (docs/dashboard.md).
import t, { type Test } from 'tap';
import { createResourceMachine } from '../../machines/resource.js';
import { defaultPolicy, webLimits } from '../../src/config.js';
import { openDatabases } from '../../src/store/environment.js';
import { WebStore } from '../../src/seams/webRecords/webStore.js';
import { clearSessionCookie, readCookie, setSessionCookie } from '../../src/web/cookies.js';
import { escapeHtml, html } from '../../src/web/html.js';
import { eventMessage } from '../../src/web/liveEvents.js';
import { machineDiagram, machineShape } from '../../src/web/machineDiagram.js';
import { PasswordHasher } from '../../src/web/passwordHasher.js';
import { hashPassword, passwordProblem, verifyPassword } from '../../src/web/passwords.js';
import { dayAndTime, plural, relative, timeOfDay } from '../../src/web/peopleUnits.js';
import { digestSecret } from '../../src/web/secrets.js';
import { csrfMatches, Sessions } from '../../src/web/sessions.js';
import { SigninThrottle } from '../../src/web/signinThrottle.js';
import { tempDataDir } from '../helpers/service.js';

function webStore(t: Test) {
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  return { dbs, store: new WebStore(dbs) };
}

t.test('html - every value is escaped; only html-made markup passes', async (t) => {
  const hostile = `"><img src=x onerror=alert(1)><script>alert('x')</script>&`;
  t.equal(escapeHtml(hostile), '&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;');
  t.equal(html`<p title="${hostile}">${hostile}</p>`.text, `<p title="${escapeHtml(hostile)}">${escapeHtml(hostile)}</p>`);
  t.equal(html`<ul>${['<a>', html`<li>ok</li>`]}</ul>`.text, '<ul>&lt;a&gt;<li>ok</li></ul>');
  t.equal(html`${null}${undefined}${false}${0}`.text, '0');
});

t.test('cookies - the session cookie is HttpOnly, SameSite=Strict, Path=/, Secure only when asked', async (t) => {
  t.equal(setSessionCookie('abc', 60, false), 'dp_session=abc; HttpOnly; SameSite=Strict; Path=/; Max-Age=60');
  t.equal(setSessionCookie('abc', 60, true), 'dp_session=abc; HttpOnly; SameSite=Strict; Path=/; Max-Age=60; Secure');
  t.equal(clearSessionCookie(false), 'dp_session=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0');
  t.equal(readCookie('a=1; dp_session=xyz; b=2', 'dp_session'), 'xyz');
  t.equal(readCookie('dp_sessionx=1', 'dp_session'), undefined);
  t.equal(readCookie('', 'dp_session'), undefined);
});

t.test('passwords - scrypt with a salt per password and its parameters recorded', async (t) => {
  const hasher = new PasswordHasher({ threads: 1, queued: 4, maxmem: webLimits.scrypt.maxmem });
  t.teardown(() => hasher.close());
  const first = await hashPassword(hasher, 'correct horse battery', 0);
  const second = await hashPassword(hasher, 'correct horse battery', 0);
  const { cost, blockSize, parallelization, keyLength, saltBytes } = webLimits.scrypt;
  t.match(first, { cost, blockSize, parallelization, keyLength });
  t.equal(Buffer.from(first.salt, 'base64').length, saltBytes);
  t.not(first.salt, second.salt, 'every password has its own salt');
  t.not(first.hash, second.hash);
  t.equal(await verifyPassword(hasher, 'correct horse battery', first), true);
  t.equal(await verifyPassword(hasher, 'correct horse batterY', first), false);
  t.equal(await verifyPassword(hasher, '', first), false);
  t.equal(passwordProblem('short'), 'Choose a password of at least 12 characters.');
  t.equal(passwordProblem('x'.repeat(257)), 'Choose a password of at most 256 characters.');
  t.equal(passwordProblem('twelve chars'), undefined);
});

t.test('sessions - stored as digests; sign-in rotates the id; expiry and sign-out end them', async (t) => {
  const { dbs, store } = webStore(t);
  let now = 1_000_000;
  const sessions = new Sessions(store, store, () => now);
  const visitor = await sessions.startAnonymous();
  t.equal(visitor.record.account, null);
  t.equal(dbs.sessions.get(visitor.id), undefined, 'the id itself is no key');
  t.same(dbs.sessions.get(digestSecret(visitor.id)), visitor.record);
  const signedIn = await sessions.signIn('alice', visitor);
  t.not(signedIn.id, visitor.id, 'a new id at sign-in');
  t.not(signedIn.record.csrf, visitor.record.csrf, 'and a new CSRF token');
  t.equal(sessions.find(visitor.id), undefined, 'the id from before sign-in is worth nothing');
  t.equal(sessions.find(signedIn.id)?.record.account, 'alice');
  now += webLimits.sessionMs;
  t.equal(sessions.find(signedIn.id), undefined, 'expired');
  now -= 1;
  await sessions.end(signedIn);
  t.equal(sessions.find(signedIn.id), undefined, 'signed out');
  t.equal(sessions.find(undefined), undefined);
  t.equal(sessions.find(''), undefined);
});

t.test('csrf - only the session own token matches', async (t) => {
  const { store } = webStore(t);
  const sessions = new Sessions(store, store, () => 0);
  const session = await sessions.startAnonymous();
  t.equal(csrfMatches(session, session.record.csrf), true);
  t.equal(csrfMatches(session, undefined), false);
  t.equal(csrfMatches(session, ''), false);
  t.equal(
    csrfMatches(session, `${session.record.csrf.slice(0, -1)}${session.record.csrf.endsWith('A') ? 'B' : 'A'}`),
    false,
    'one character off',
  );
  t.equal(csrfMatches(session, (await sessions.startAnonymous()).record.csrf), false);
});

t.test(
  'throttle - attempts are counted before the check; they slow the answers, then refuse them, per name and per address, for a window',
  async (t) => {
    const { store } = webStore(t);
    let now = 0;
    const throttle = new SigninThrottle(store, () => now);
    const { slowAfter, refuseAfter, delayMs, maxDelayMs, windowMs } = webLimits.signin;
    const delays: number[] = [];
    for (let failure = 0; failure < refuseAfter; failure++) {
      const verdict = await throttle.reserve('alice', '10.0.0.1');
      if (verdict.kind !== 'allow') throw new Error(`attempt ${failure + 1} refused`);
      delays.push(verdict.delayMs);
      await throttle.settle(verdict.attempt, 'wrong');
    }
    t.same(
      delays,
      delays.map((_, index) => (index < slowAfter ? 0 : Math.min(maxDelayMs, (index - slowAfter + 1) * delayMs))),
    );
    // docs/dashboard.md#rate-limits, exactly: ten attempts are checked (the 4th on held longer), the 11th is refused.
    t.same(delays, [0, 0, 0, 500, 1000, 1500, 2000, 2500, 3000, 3000]);
    const refused = { kind: 'refuse', retryAfterSeconds: windowMs / 1000 };
    t.same(await throttle.reserve('alice', '10.0.0.2'), refused, 'the 11th attempt: the name is refused from any address');
    t.same(await throttle.reserve('bob', '10.0.0.1'), refused, 'the address is refused for any name');
    t.equal(store.attempts('account:bob'), undefined, 'a refused attempt counts nothing');
    t.match(await throttle.reserve('bob', '10.0.0.2'), { kind: 'allow', delayMs: 0 });
    now += windowMs;
    t.match(await throttle.reserve('alice', '10.0.0.1'), { kind: 'allow', delayMs: 0 }, 'the window ends');

    const carol = await throttle.reserve('carol', '10.0.0.3');
    const again = await throttle.reserve('carol', '10.0.0.3');
    if (carol.kind !== 'allow' || again.kind !== 'allow') throw new Error('carol refused');
    await throttle.settle(carol.attempt, 'wrong');
    t.same(store.attempts('account:carol'), { failures: 2, since: now }, 'counted before either is checked');
    await throttle.settle(again.attempt, 'right');
    t.equal(store.attempts('account:carol'), undefined, 'a right password clears the name');
    t.equal(store.attempts('address:10.0.0.3')?.failures, 1, "and takes only its own attempt back from the address's count");
    const unchecked = await throttle.reserve('dave', '10.0.0.3');
    if (unchecked.kind !== 'allow') throw new Error('dave refused');
    await throttle.settle(unchecked.attempt, 'unchecked');
    t.equal(store.attempts('account:dave'), undefined, 'an attempt never checked is taken back from the name');
    t.equal(store.attempts('address:10.0.0.3')?.failures, 1, 'and from the address');
    now += windowMs;
    const late = await throttle.reserve('erin', '10.0.0.3');
    if (late.kind !== 'allow') throw new Error('erin refused');
    await throttle.reserve('erin', '10.0.0.3');
    now += windowMs;
    await throttle.reserve('erin', '10.0.0.3');
    await throttle.settle(late.attempt, 'unchecked');
    t.same(store.attempts('account:erin'), { failures: 1, since: now }, 'settling touches nothing in a later window');
  },
);

t.test('machine diagram - drawn from the machine definition, the current state marked', async (t) => {
  const shape = machineShape(createResourceMachine(defaultPolicy));
  t.same(shape.states, ['pending', 'available', 'stale', 'unavailable', 'not_found']);
  t.equal(shape.initial, 'pending');
  t.same(shape.edges, [
    { from: '*', to: 'available', event: 'COLLECTED' },
    { from: '*', to: 'not_found', event: 'NOT_FOUND' },
    { from: 'pending', to: 'unavailable', event: 'FAILED' },
    { from: 'available', to: 'stale', event: 'FAILED' },
  ]);
  t.same(shape.stays.get('stale'), ['FAILED', 'RETRY_DUE']);
  t.same(shape.stays.get('*'), ['DEFERRED']);
  const svg = machineDiagram(shape, 'stale').text;
  t.equal(svg.match(/class="state current"/g)?.length, 1);
  t.match(svg, /class="state current" aria-current="true">\s*<rect[^>]*><\/rect>\s*<text[^>]*>stale ●<\/text>/);
  t.equal(svg.match(/marker-end/g)?.length, 4);
});

t.test('live events - every line of the data on its own data: line', async (t) => {
  t.equal(eventMessage('<p>a</p>\n<p>b</p>'), 'data: <p>a</p>\ndata: <p>b</p>\n\n');
});

t.test('sessions - a sweep removes the expired sessions among those it looks at, from where it starts', async (t) => {
  const { dbs, store } = webStore(t);
  let now = 0;
  const sessions = new Sessions(store, store, () => now);
  for (let index = 0; index < 40; index++) await sessions.startAnonymous();
  now += webLimits.formSessionMs;
  // Written directly: a session started here would sweep from a random place.
  const liveDigest = 'f'.repeat(64);
  await store.putSession(liveDigest, { account: null, csrf: 'x', expiresAt: now + 1 });
  const digests = () => [...dbs.sessions.getKeys()].map(String);
  await store.sweep(now, 1_000, '8');
  t.ok(
    digests().every((digest) => digest < '8' || digest === liveDigest),
    'every expired session from 8 on is gone',
  );
  t.ok(
    digests().some((digest) => digest < '8'),
    'those before 8 are left for another sweep',
  );
  await store.sweep(now, 1_000, '');
  t.same(digests(), [liveDigest], 'the live session stays');
});

t.test("people's units - dates, durations and counts as people say them", async (t) => {
  const now = Date.parse('2026-11-26T08:05:00Z');
  t.equal(dayAndTime(Date.parse('2026-11-26T14:05:59Z'), now), '26 Nov 14:05 UTC');
  t.equal(dayAndTime(Date.parse('2027-01-02T03:04:00Z'), now), '2 Jan 2027 03:04 UTC', 'another year is named');
  t.equal(timeOfDay(Date.parse('2026-11-26T14:05:07Z')), '14:05:07 UTC');
  t.equal(relative(now + 21_599_000, now), 'in 6 h');
  t.equal(relative(now + 40_000, now), 'in 40 s');
  t.equal(relative(now - 12 * 60_000, now), '12 min ago');
  t.equal(relative(now + 3 * 86_400_000, now), 'in 3 days');
  t.equal(plural(1, 'call'), '1 call');
  t.equal(plural(0, 'call'), '0 calls');
  t.equal(plural(1000, 'account'), '1,000 accounts');
});
