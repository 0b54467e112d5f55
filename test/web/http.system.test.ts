// The dashboard over HTTP on a real server (docs/dashboard.md): headers and cookie flags,
// CSRF refusals that change nothing, session rotation at sign-in, the sign-in throttle, inert
// XSS, clear refusals of bad input, and no token secret on any page or in the log after the
// answer that created it.
import pino from 'pino';
import t, { type Test } from 'tap';
import { escapeHtml } from '../../src/web/html.js';
import { contentSecurityPolicy } from '../../src/web/routes.js';
import { startTestService } from '../helpers/service.js';
import { csrfOf, signedIn, WebClient } from './webClient.js';

const password = 'a long enough password';
const xssName = `"><img src=x onerror=alert(1)>`;
const xssScript = '<script>alert(1)</script>';

async function dashboard(t: Test, options: Parameters<typeof startTestService>[1] = {}) {
  const lines: string[] = [];
  const log = pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) });
  const test = await startTestService(t, { log, ...options });
  await test.tokenFor('alice');
  return { ...test, lines, client: new WebClient(test.url) };
}

t.test('dashboard - every page carries the CSP and the other security headers; signed-out pages lead to sign-in', async (t) => {
  const { client } = await dashboard(t);
  const signin = await client.get('/dashboard/signin');
  t.equal(signin.status, 200);
  t.equal(signin.headers.get('content-security-policy'), contentSecurityPolicy);
  t.equal(
    contentSecurityPolicy,
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
  t.equal(signin.headers.get('x-content-type-options'), 'nosniff');
  t.equal(signin.headers.get('referrer-policy'), 'no-referrer');
  t.equal(signin.headers.get('cache-control'), 'no-store');
  t.equal(signin.headers.get('content-type'), 'text/html; charset=utf-8');
  t.notMatch(signin.text, /<script>|style=/, 'no inline script or style');
  for (const path of ['/dashboard/tokens', '/dashboard/usage', '/console/accounts', '/console/platforms', '/console/resources']) {
    const answer = await new WebClient(client.url).get(path);
    t.equal(answer.status, 303, path);
    t.equal(answer.headers.get('location'), '/dashboard/signin', path);
  }
  const css = await client.get('/dashboard/assets/style.css');
  t.equal(css.headers.get('content-type'), 'text/css; charset=utf-8');
  const wrongMethod = await client.post('/dashboard/usage', {});
  t.equal(wrongMethod.status, 405);
  t.equal(wrongMethod.headers.get('allow'), 'GET');
  t.match(wrongMethod.text, 'This page answers GET only.');
  const missing = await client.get('/dashboard/nothing-here');
  t.equal(missing.status, 404);
  t.match(missing.text, 'There is no page at /dashboard/nothing-here.');
});

t.test('dashboard - session cookie flags; Secure behind a TLS proxy or with secureCookies', async (t) => {
  const { client, url } = await dashboard(t);
  await client.get('/dashboard/signin');
  t.match(client.setCookies[0], /^dp_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=3600$/);
  const proxied = new WebClient(url, { 'x-forwarded-proto': 'https' });
  await proxied.get('/dashboard/signin');
  t.match(proxied.setCookies[0], /; Secure$/);
  const secure = await dashboard(t, { secureCookies: true });
  await secure.client.get('/dashboard/signin');
  t.match(secure.client.setCookies[0], /HttpOnly; SameSite=Strict; Path=\/; Max-Age=3600; Secure$/);
});

t.test('dashboard - sign-in rotates the session id (no fixation); sign-out ends the session', async (t) => {
  const { client, dataDir } = await dashboard(t);
  await client.get('/dashboard/signin');
  const planted = client.session!;
  await signedIn(client, dataDir, 'alice', password);
  t.not(client.session, planted, 'a new id after sign-in');
  t.equal((await client.get('/dashboard/tokens')).status, 200);
  const attacker = new WebClient(client.url);
  attacker.session = planted;
  t.equal((await attacker.get('/dashboard/tokens')).status, 303, 'the id from before sign-in signs nobody in');
  const page = await client.get('/dashboard/tokens');
  const out = await client.post('/dashboard/signout', { csrf: csrfOf(page.text) });
  t.equal(out.status, 303);
  t.equal(out.headers.get('location'), '/dashboard/signin');
  t.match(out.headers.getSetCookie()[0], /^dp_session=; .*Max-Age=0/);
  const stale = new WebClient(client.url);
  stale.session = /dp_session=([^;]+)/.exec(client.setCookies.at(-2)!)![1];
  t.equal((await stale.get('/dashboard/tokens')).status, 303, 'the signed-out id is worth nothing');
});

t.test('dashboard - a form without its CSRF token, or with another, is refused and changes nothing', async (t) => {
  const { client, dataDir, service } = await dashboard(t);
  await signedIn(client, dataDir, 'alice', password);
  const before = service.accounts.tokensOf('alice').length;
  const missing = await client.post('/dashboard/tokens', { note: 'forged' });
  t.equal(missing.status, 403);
  t.match(missing.text, 'This form was refused: it did not come from a page this server gave you');
  const other = new WebClient(client.url);
  const otherPage = await other.get('/dashboard/signin');
  const wrong = await client.post('/dashboard/tokens', { note: 'forged', csrf: csrfOf(otherPage.text) });
  t.equal(wrong.status, 403);
  t.equal(service.accounts.tokensOf('alice').length, before, 'no token was made');
  const noSession = await new WebClient(client.url).post('/dashboard/signin', { name: 'alice', password });
  t.equal(noSession.status, 403, 'sign-in needs its form session too');
  const json = await fetch(`${client.url}/dashboard/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  t.equal(json.status, 415);
});

t.test('dashboard - failed sign-ins are slowed, then refused, and say so', async (t) => {
  const waits: number[] = [];
  const { client, dataDir } = await dashboard(t, { signinWait: async (ms) => void waits.push(ms) });
  await signedIn(new WebClient(client.url), dataDir, 'alice', password);
  await client.get('/dashboard/signin');
  const statuses: number[] = [];
  // docs/dashboard.md#rate-limits: ten failures are checked; the 11th attempt is the first refused.
  for (let attempt = 1; attempt <= 10; attempt++) {
    const answer = await client.submit('/dashboard/signin', '/dashboard/signin', { name: 'alice', password: `wrong ${attempt}` });
    statuses.push(answer.status);
    t.match(answer.text, 'The account name or the password is wrong.');
  }
  t.same(statuses, Array(10).fill(401));
  t.same(waits, [500, 1000, 1500, 2000, 2500, 3000, 3000], 'held longer after each failure beyond the third');
  const refused = await client.submit('/dashboard/signin', '/dashboard/signin', { name: 'alice', password });
  t.equal(refused.status, 429, 'the 11th attempt is refused, even with the right password');
  t.match(refused.text, 'Too many failed sign-ins for this account or from this address. Try again in 15 minutes.');
});

t.test('dashboard - XSS in notes, names, identifiers and reflected parameters stays text', async (t) => {
  const { client, dataDir, service } = await dashboard(t);
  await service.accounts.updateAccount('alice', { operator: true });
  await signedIn(client, dataDir, 'alice', password);
  for (const note of [xssScript, xssName]) {
    const created = await client.submit('/dashboard/tokens', '/dashboard/tokens', { note });
    t.equal(created.status, 303);
  }
  const list = await client.get('/dashboard/tokens');
  t.notOk(list.text.includes(xssScript) || list.text.includes('<img src=x'), 'no hostile markup in the token list');
  t.ok(list.text.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  t.ok(list.text.includes('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;'));
  const badName = await client.submit('/console/accounts', '/console/accounts', { name: xssName, plan: 'free' });
  t.equal(badName.status, 422);
  t.notOk(badName.text.includes('<img src=x'));
  t.match(badName.text, escapeHtml(`Invalid account name '${xssName}': use 1-64 letters, digits, '.', '_' or '-'`));
  const identifier = await client.get(`/console/resources?platform=github&type=account&identifier=${encodeURIComponent(xssScript)}`);
  t.equal(identifier.status, 422);
  t.notOk(identifier.text.includes(xssScript));
  const reflected = await client.get(`/console/accounts?done=${encodeURIComponent(xssScript)}`);
  t.notOk(reflected.text.includes(xssScript));
  const revoked = await client.get(`/dashboard/tokens?revoked=${encodeURIComponent(xssName)}`);
  t.notOk(revoked.text.includes('<img src=x'));
});

t.test('dashboard - bad input on every form gets a clear message and changes nothing', async (t) => {
  const { client, dataDir, service } = await dashboard(t);
  const invite = await client.submit('/dashboard/invite', '/dashboard/invite', { invite: 'short', password, confirm: password });
  t.equal(invite.status, 422);
  t.match(invite.text, 'This invite link is incomplete: open the whole link your operator gave you.');
  const unknown = await client.submit('/dashboard/invite', '/dashboard/invite', { invite: 'A'.repeat(43), password, confirm: password });
  t.equal(unknown.status, 410);
  t.match(unknown.text, 'This invite is unknown, already used or expired.');
  for (const refused of [invite, unknown])
    t.match(refused.text, /<form [^>]*id="invite-form" hidden>/, 'a refused invite leaves no form that can only fail');
  await service.accounts.updateAccount('alice', { operator: true });
  await signedIn(client, dataDir, 'alice', password);
  const before = service.accounts.tokensOf('alice').length;
  const note = await client.submit('/dashboard/tokens', '/dashboard/tokens', { note: 'two\nlines' });
  t.equal(note.status, 422);
  t.match(note.text, 'The note is refused: give one line of at most 200 characters.');
  t.equal(service.accounts.tokensOf('alice').length, before);
  const nobody = await client.get('/dashboard/tokens/revoke?id=tok_000000000000');
  t.equal(nobody.status, 404);
  const quota = await client.submit('/console/accounts', '/console/accounts/update', { name: 'alice', quota: 'lots' });
  t.equal(quota.status, 422);
  t.match(quota.text, escapeHtml("Invalid quota 'lots': give a whole number or 'none'"));
  const rate = await client.submit('/console/accounts', '/console/accounts/update', { name: 'alice', rate: '5 per minute' });
  t.match(rate.text, escapeHtml("Invalid rate '5 per minute': write it like 60/1m"));
  const nothing = await client.submit('/console/accounts', '/console/accounts/update', { name: 'alice' });
  t.match(nothing.text, 'Nothing to change for alice: give a plan, a quota or a rate.');
  const ghost = await client.submit('/console/accounts', '/console/accounts/update', { name: 'ghost', quota: '5' });
  t.match(ghost.text, escapeHtml("There is no account named 'ghost'."));
  t.equal(service.accounts.account('alice')?.quota, 500, 'the quota is unchanged');
  const taken = await client.submit('/console/accounts', '/console/accounts', { name: 'alice' });
  t.match(taken.text, escapeHtml("An account named 'alice' already exists."));
  const missingResource = await client.get('/console/resources?platform=github&type=account&identifier=nobody-asked');
  t.equal(missingResource.status, 404);
  t.match(missingResource.text, 'Resource <code>github/account/nobody-asked</code> is not tracked');
  const wrongType = await client.get('/console/resources?platform=github&type=video&identifier=x');
  t.match(wrongType.text, escapeHtml("There is no resource type 'video' on platform 'github'."));
});

t.test('dashboard - a non-operator gets 403 from the console; the console works for an operator', async (t) => {
  const { client, dataDir, service } = await dashboard(t);
  await signedIn(client, dataDir, 'alice', password);
  const refused = await client.get('/console/accounts');
  t.equal(refused.status, 403);
  t.match(refused.text, 'The operator console is for operator accounts.');
  await service.accounts.updateAccount('alice', { operator: true });
  const created = await client.submit('/console/accounts', '/console/accounts', { name: 'bob', plan: 'paid', rate: '10/1s' });
  t.equal(created.status, 303);
  t.match(service.accounts.account('bob'), { plan: 'paid', quota: null, rate: { limit: 10, windowMs: 1000 } });
  const invited = await client.submit('/console/accounts', '/console/accounts/invite', { name: 'bob' });
  t.match(invited.text, new RegExp(`${client.url}/dashboard/invite#[A-Za-z0-9_-]{43}`));
});

t.test('dashboard - a token secret appears once, on the page the form redirects to, and nowhere after, page or log', async (t) => {
  const { client, dataDir, lines, service } = await dashboard(t);
  await service.accounts.updateAccount('alice', { operator: true });
  await signedIn(client, dataDir, 'alice', password);
  const tokensBefore = service.accounts.tokensOf('alice').length;
  const posted = await client.submit('/dashboard/tokens', '/dashboard/tokens', { note: 'ci' });
  t.equal(posted.status, 303, 'post, then redirect: a reload never posts the form again');
  t.equal(posted.headers.get('location'), '/dashboard/tokens');
  t.notOk(posted.text.includes('dp_'), 'the redirect holds no secret in its body');
  const created = await client.get('/dashboard/tokens');
  t.equal(created.headers.get('cache-control'), 'no-store');
  const secret = /id="secret" readonly value="(dp_[A-Za-z0-9_-]+)"/.exec(created.text)?.[1];
  t.ok(secret, 'the secret is shown once');
  const reloaded = await client.get('/dashboard/tokens');
  t.notOk(reloaded.text.includes(secret!), 'a reload shows it no more');
  t.equal(service.accounts.tokensOf('alice').length, tokensBefore + 1, 'and creates no second token');
  const search = await fetch(`${client.url}/api/v1/resources/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] }),
  });
  t.equal(search.status, 200, 'the new token works');
  for (const path of ['/dashboard/tokens', '/dashboard/usage', '/console/accounts', '/console/platforms']) {
    const page = await client.get(path);
    t.equal(page.status, 200, path);
    t.notOk(page.text.includes(secret!), `${path} does not show the secret`);
    t.ok(page.text.includes(secret!.slice(0, 8)) || path !== '/dashboard/tokens', 'the list shows its first characters');
  }
  t.notOk(lines.join('').includes(secret!), 'no log line holds the secret');
  t.notOk(lines.join('').includes(password), 'nor the password');
  t.match(lines.join(''), '"msg":"token created on the dashboard"');
});

t.test('dashboard - deleting an account ends its sessions and forgets its password', async (t) => {
  const { client, dataDir, service } = await dashboard(t);
  await signedIn(client, dataDir, 'alice', password);
  t.equal((await client.get('/dashboard/tokens')).status, 200);
  await service.accounts.deleteAccount('alice');
  await service.accounts.createAccount({
    name: 'alice',
    plan: 'free',
    quota: 5,
    rate: { limit: 5, windowMs: 60_000 },
    createdAt: new Date().toISOString(),
  });
  t.equal((await client.get('/dashboard/tokens')).status, 303, 'the old session signs nobody into the new account');
  const again = await client.submit('/dashboard/signin', '/dashboard/signin', { name: 'alice', password });
  t.equal(again.status, 401, 'nor does the old password');
});

t.test('dashboard - the live events: refused to non-operators, a stream of the live section to operators', async (t) => {
  const { client, dataDir, service, url } = await dashboard(t);
  await signedIn(client, dataDir, 'alice', password);
  t.equal((await client.get('/console/events')).status, 403);
  t.equal((await new WebClient(url).get('/console/events')).status, 303, 'a visitor is sent to sign in');
  await service.accounts.updateAccount('alice', { operator: true });
  const abort = new AbortController();
  const stream = await fetch(`${url}/console/events`, { headers: { cookie: `dp_session=${client.session}` }, signal: abort.signal });
  t.equal(stream.status, 200);
  t.equal(stream.headers.get('content-type'), 'text/event-stream');
  const reader = stream.body!.getReader();
  let received = '';
  while (!received.includes('\n\ndata: ')) received += new TextDecoder().decode((await reader.read()).value);
  while (!/data: [^\n]*<\/div>\n\n/.test(received)) received += new TextDecoder().decode((await reader.read()).value);
  t.match(
    received,
    /^retry: 1000\n\ndata: <p class="muted">As of <time datetime="\d{4}-[^"]+">\d{1,2} [A-Z][a-z]{2} \d\d:\d\d:\d\d UTC<\/time><\/p>\n/,
  );
  t.match(received, '<h2 id="platform-github">github</h2>');
  abort.abort();
});

t.test('dashboard - usage against the quota, or without a limit when the quota is none', async (t) => {
  const { client, dataDir, service } = await dashboard(t);
  await signedIn(client, dataDir, 'alice', password);
  const limited = await client.get('/dashboard/usage');
  t.match(limited.text, '<strong id="used">0</strong> of <strong>500</strong> requests this month');
  t.match(limited.text, '60 requests per 1m');
  await service.accounts.updateAccount('alice', { quota: null, rate: { limit: 10, windowMs: 1_000 } });
  const unlimited = await client.get('/dashboard/usage');
  t.match(unlimited.text, '<strong id="used">0</strong> requests this month (no monthly limit)');
  t.match(unlimited.text, '10 requests per 1s');
  t.notMatch(unlimited.text, '<progress');
});

t.test('console - the accounts list is searched and paged on the server, 50 to a page', async (t) => {
  const { client, dataDir, service } = await dashboard(t);
  await service.accounts.updateAccount('alice', { operator: true });
  await signedIn(client, dataDir, 'alice', password);
  const createdAt = new Date().toISOString();
  for (let n = 0; n < 120; n++)
    await service.accounts.createAccount({
      name: `user-${String(n).padStart(3, '0')}`,
      plan: 'free',
      quota: 500,
      rate: { limit: 60, windowMs: 60_000 },
      createdAt,
    });
  const rowsOf = (text: string) => [...text.matchAll(/<tr><th scope="row">([^< ]+)/g)].map((match) => match[1]);
  const first = await client.get('/console/accounts');
  t.match(first.text, '<caption>121 accounts; 1-50 shown, page 1 of 3</caption>');
  t.equal(rowsOf(first.text).length, 50);
  t.match(first.text, '<a href="/console/accounts?page=2" rel="next">Next</a>');
  const last = await client.get('/console/accounts?page=3');
  t.match(last.text, '<caption>121 accounts; 101-121 shown, page 3 of 3</caption>');
  t.equal(rowsOf(last.text).length, 21);
  const found = await client.get('/console/accounts?q=USER-11');
  t.match(found.text, '<caption>10 accounts matching &#39;USER-11&#39; of 121</caption>');
  t.same(
    rowsOf(found.text),
    Array.from({ length: 10 }, (_, n) => `user-11${n}`),
  );
  const none = await client.get('/console/accounts?q=nobody&page=x');
  t.match(none.text, '<caption>0 accounts matching &#39;nobody&#39; of 121</caption>');
  t.equal(rowsOf(none.text).length, 0);
  t.match(first.text, /<button type="submit" class="danger">Suspend user-000<\/button>/, 'Suspend looks destructive');
});
