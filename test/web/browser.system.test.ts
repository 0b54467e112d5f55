// The dashboard and the console in a real browser: Debian's chromium driven by playwright-core
// (docs/dashboard.md). A newcomer's whole path (invite, password, sign-in, token,
// search, usage, revoke, refused), the console (accounts, resource inspector, live platforms),
// keyboard-only forms, labels on every input, no CSP violation. Screenshots go to
// .tap/screenshots/ for a person to look at.
import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Page } from 'playwright-core';
import t from 'tap';
import { issueToken } from '../../src/access/provisioning.js';
import { eventually, startTestService } from '../helpers/service.js';
import { inviteLinkFor } from './webClient.js';

const chromiumPath = '/usr/bin/chromium';
const screenshots = new URL('../../.tap/screenshots/', import.meta.url).pathname;
const password = 'a long enough password';
const searchBody = JSON.stringify({ resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] });

t.test('browser - newcomer and operator paths', async (t) => {
  // A missing browser fails in one line that says what to install (docs/testing.md#requirements).
  if (!existsSync(chromiumPath)) return t.fail(`${chromiumPath} is missing: apt-get install chromium to run npm run test:system`);
  mkdirSync(screenshots, { recursive: true });
  const { url, dataDir, service } = await startTestService(t);
  await service.accounts.createAccount({
    name: 'alice',
    plan: 'free',
    quota: 500,
    rate: { limit: 60, windowMs: 60_000 },
    createdAt: new Date().toISOString(),
  });
  await service.accounts.createAccount({
    name: 'root',
    plan: 'paid',
    quota: null,
    rate: { limit: 3000, windowMs: 60_000 },
    createdAt: new Date().toISOString(),
    operator: true,
  });
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  t.teardown(() => browser.close());
  const violations: string[] = [];
  const pageErrors: string[] = [];
  const newPage = async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      // Answers with an error status are logged as errors too; the pages ask for some on purpose.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) violations.push(message.text());
    });
    return page;
  };
  const shot = (page: Page, name: string) => page.screenshot({ path: `${screenshots}${name}.png`, fullPage: true });
  /** Every visible input and select has a label a screen reader would read. */
  const unlabelled = (page: Page) =>
    page.$$eval('input:not([type=hidden]), select', (fields) =>
      fields
        .filter((field) => (field as HTMLInputElement).labels?.length === 0 && !field.getAttribute('aria-label'))
        .map((field) => field.outerHTML),
    );
  const search = (token: string) =>
    fetch(`${url}/api/v1/resources/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: searchBody,
    });

  // A newcomer: invite link -> password -> sign in.
  const page = await newPage();
  // The link opened in a tab already on the invite page: only the fragment changes.
  await page.goto(`${url}/dashboard/invite`);
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  await page.goto(await inviteLinkFor(dataDir, 'alice', url));
  await page.waitForFunction(() => location.hash === '');
  t.ok(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument), 'read on hashchange, without a reload');
  t.match(await page.inputValue('#invite'), /^[A-Za-z0-9_-]{43}$/, 'the invite is read from the changed fragment');
  t.equal(new URL(page.url()).hash, '', 'the invite leaves the address bar');
  t.same(await unlabelled(page), []);
  await shot(page, '01-invite');
  // Keyboard only: past the skip link to the first field, Tab between fields, Enter submits.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  t.equal(await page.evaluate(() => document.activeElement?.id), 'password');
  await page.keyboard.type(password);
  await page.keyboard.press('Tab');
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
  await page.waitForURL(`${url}/dashboard/signin?password=set`);
  t.equal(await page.getByRole('status').textContent(), 'Your password is set. Sign in with it.');
  // Keyboard only: Tab to each field, type, Enter submits.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  t.equal(await page.evaluate(() => document.activeElement?.id), 'name', 'Tab reaches the name after the skip link');
  await page.keyboard.type('alice');
  await page.keyboard.press('Tab');
  await page.keyboard.type(password);
  await shot(page, '02-signin');
  await page.keyboard.press('Enter');
  await page.waitForURL(`${url}/dashboard/tokens`);
  t.same(await unlabelled(page), []);

  // A token, by keyboard only: shown once, copied, used.
  await page.getByLabel('Note').focus();
  await page.keyboard.type('<script>alert(1)</script> laptop');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#secret');
  const secret = await page.inputValue('#secret');
  t.match(secret, /^dp_[A-Za-z0-9_-]{32}$/);
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByText('Copied.').waitFor();
  t.equal(await page.evaluate(() => navigator.clipboard.readText()), secret, 'the copy button copies the secret');
  await shot(page, '03-token-created');
  const tokenRows = await page.locator('tbody tr').count();
  await page.reload();
  t.notOk((await page.content()).includes(secret), 'a reload shows the secret no more');
  t.equal(await page.locator('tbody tr').count(), tokenRows, 'and creates no second token');
  t.equal((await search(secret)).status, 200, 'the token works on the search API');
  await page.goto(`${url}/dashboard/tokens`);
  t.notOk((await page.content()).includes(secret), 'the list never shows the secret again');
  t.equal(await page.locator('td', { hasText: '<script>alert(1)</script> laptop' }).count(), 1, 'the note is shown as text');
  await page.goto(`${url}/dashboard/usage`);
  t.equal(await page.textContent('#used'), '1', 'the usage moved');
  const today = new Date().toISOString().slice(0, 10);
  t.equal(await page.locator('details table tbody tr').count(), 90, 'one row a day for 90 days');
  t.equal(await page.locator('details table tbody tr').last().textContent(), `${today}1`, "today's bar counts the search");
  t.equal(await page.locator('svg.chart rect.requests').count(), 1, 'one bar drawn: the only day with requests');
  await shot(page, '04-usage');

  // Revoke with a confirmation; the token is refused within a second.
  await page.goto(`${url}/dashboard/tokens`);
  await page.getByRole('link', { name: 'Revoke…' }).click();
  await shot(page, '05-revoke-confirm');
  await page.getByRole('button', { name: 'Revoke this token' }).focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/dashboard\/tokens\?revoked=/);
  const revokedAt = Date.now();
  const refused = await eventually(
    () => search(secret),
    (answer) => answer.status === 401,
    1_000,
  );
  t.equal(refused.status, 401, `refused ${Date.now() - revokedAt} ms after the revocation`);
  await shot(page, '06-token-revoked');

  // The operator console.
  const console = await newPage();
  await console.goto(await inviteLinkFor(dataDir, 'root', url));
  await console.getByLabel('New password').fill(password);
  await console.getByLabel('The same password again').fill(password);
  await console.getByRole('button', { name: 'Set password' }).click();
  await console.getByLabel('Account name').fill('root');
  await console.getByLabel('Password').fill(password);
  await console.getByRole('button', { name: 'Sign in' }).click();
  await console.goto(`${url}/console/accounts`);
  t.same(await unlabelled(console), []);
  await console.getByLabel('Name (1-64 letters').fill('bob');
  await console.getByLabel('Quota (blank').fill('many');
  await console.getByRole('button', { name: 'Create account' }).click();
  t.match(await console.getByRole('alert').textContent(), "Invalid quota 'many': give a whole number or 'none'");
  t.equal(service.accounts.account('bob'), undefined, 'a refused form creates nothing');
  await shot(console, '07-console-accounts');

  // Suspend alice from the console: her searches are refused within a second; resume lets them through.
  const fresh = (await issueToken(service.accounts, 'alice', Date.now(), 'suspension check')).secret;
  t.equal((await search(fresh)).status, 200);
  await console.goto(`${url}/console/accounts`);
  await console.getByLabel('Reason (optional)').first().focus();
  await console.keyboard.type('unpaid invoice <b>');
  await console.keyboard.press('Tab');
  t.equal(await console.evaluate(() => document.activeElement?.textContent), 'Suspend alice', 'Tab goes from the reason to its button');
  await console.keyboard.press('Enter');
  await console.getByText('Account alice suspended: its searches are refused.').waitFor();
  const suspended = await eventually(
    () => search(fresh),
    (answer) => answer.status === 403,
    1_000,
  );
  t.equal(suspended.status, 403, 'a suspended account is refused');
  t.same(await suspended.json(), { error: 'This account is suspended; its requests are refused until the operator resumes it' });
  t.match(await console.locator('tr', { hasText: 'alice' }).first().textContent(), 'suspended since');
  await shot(console, '08-console-suspended');
  await console.getByRole('button', { name: 'Resume alice' }).click();
  await console.getByText('Account alice resumed.').waitFor();
  t.equal(
    (
      await eventually(
        () => search(fresh),
        (answer) => answer.status === 200,
        1_000,
      )
    ).status,
    200,
    'resumed',
  );

  await console.goto(`${url}/console/resources?platform=github&type=account&identifier=octocat`);
  await console.waitForSelector('#transitions');
  t.equal(await console.textContent('#state'), 'available');
  const rows = await console.locator('#transitions tbody tr').allTextContents();
  t.match(rows[0], /^\d{1,2} [A-Z][a-z]{2} \d\d:\d\d UTCCOLLECTEDpendingavailable$/, 'newest first: collected');
  t.match(rows.at(-1), /^\d{1,2} [A-Z][a-z]{2} \d\d:\d\d UTCCREATED—pending$/, 'oldest: created');
  t.ok((await console.locator('#datapoints tbody tr').count()) > 0, 'the current datapoints are listed');
  t.ok((await console.locator('section.series svg.line-chart').count()) > 0, 'a numeric datapoint is charted');
  t.equal(await console.locator('svg.machine .state.current').count(), 1, 'the current state is marked');
  await shot(console, '09-console-resource');

  await console.goto(`${url}/console/platforms`);
  const first = await console.textContent('#live time');
  await console.waitForFunction((before) => document.querySelector('#live time')?.textContent !== before, first, { timeout: 5_000 });
  t.pass('the platforms page updated itself without a reload');
  const github = console.locator('section.platform', { has: console.locator('#platform-github') });
  t.equal(await github.locator('table tbody td').first().textContent(), '1', 'the collection of octocat is counted as found');
  t.match(await github.locator('dl').textContent(), 'Circuit breakerclosed');
  await shot(console, '10-console-platforms');

  const alicePage = await page.goto(`${url}/console/accounts`);
  t.equal(alicePage?.status(), 403, 'a non-operator is refused the console');
  await shot(page, '11-console-refused');
  t.same(violations, [], 'no console errors (CSP violations included)');
  t.same(pageErrors, [], 'no script errors');
});
