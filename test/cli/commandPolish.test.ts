// What a new user meets first on the command line and at the server's address
// (docs/operations.md, docs/dashboard.md#front-page, docs/http.md#server-header): command
// groups without a subcommand, names differing only by case, a second revocation, a serve
// refused for its port, the resource report, the emulator's fault modes. In process.
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import t from 'tap';
import { accountsCommand } from '../../src/cli/accountCommands.js';
import { helpText } from '../../src/cli/help.js';
import { resourcesCommand } from '../../src/cli/resourceCommands.js';
import { fromNow, table, utcMinute } from '../../src/cli/resourceReport.js';
import { serveCommand } from '../../src/cli/serveCommands.js';
import { tokensCommand } from '../../src/cli/tokenCommands.js';
import { CommandFailure, MissingSubcommand, UsageError } from '../../src/usageError.js';
import { faultModes } from '../../src/faultModes.js';
import { contentSecurityPolicy } from '../../src/web/routes.js';
import { startTestService, tempDataDir } from '../helpers/service.js';

/** Runs a command in process; resolves with the lines it printed. */
async function run(command: (args: string[], print: (line: string) => void) => Promise<void>, args: string[]) {
  const lines: string[] = [];
  await command(args, (line) => void lines.push(line));
  return lines;
}

t.test('cli - accounts, tokens and resources without a subcommand ask for their help', async (t) => {
  for (const [name, command] of [
    ['accounts', accountsCommand],
    ['tokens', tokensCommand],
    ['resources', resourcesCommand],
  ] as const) {
    const refusal = await run(command, []).catch((error: unknown) => error);
    t.ok(refusal instanceof MissingSubcommand, `${name} alone is a missing subcommand`);
    t.equal((refusal as MissingSubcommand).command, name);
    t.ok(refusal instanceof UsageError, 'exit status 2, as for any usage mistake');
    t.match(helpText(name), new RegExp(`^usage:\\n {2}datapoints ${name} `), `${name} has the help that is printed`);
  }
  await t.rejects(run(accountsCommand, ['frobnicate']), {
    message: "unknown accounts command 'frobnicate': use create, show, list, update, suspend, resume, usage, delete or invite",
  });
});

t.test('cli - account names differing only by case are one account', async (t) => {
  const data = tempDataDir(t);
  const [created] = await run(accountsCommand, ['create', 'acme', '--data', data]);
  t.equal(JSON.parse(created!).name, 'acme');
  await t.rejects(run(accountsCommand, ['create', 'Acme', '--data', data]), {
    constructor: UsageError,
    message: "account 'acme' already exists: names differing only by case are one account, so 'Acme' cannot be created",
  });
  await t.rejects(run(accountsCommand, ['create', 'ACME', '--data', data]), { message: /^account 'acme' already exists: / });
  await t.rejects(run(accountsCommand, ['create', 'acme', '--data', data]), { message: "account 'acme' already exists" });
  const listed = (await run(accountsCommand, ['list', '--data', data])).map((line) => JSON.parse(line).name);
  t.same(listed, ['acme'], 'no second account was made');
  const [other] = await run(accountsCommand, ['create', 'acme-2', '--data', data]);
  t.equal(JSON.parse(other!).name, 'acme-2', 'a name that differs by more than case is its own account');
});

t.test('cli - revoking a revoked token says it was already revoked, and keeps the first time', async (t) => {
  const data = tempDataDir(t);
  await run(accountsCommand, ['create', 'acme', '--data', data]);
  await run(tokensCommand, ['create', 'acme', '--data', data]);
  const [token] = (await run(tokensCommand, ['list', 'acme', '--data', data])).map((line) => JSON.parse(line));
  t.same(await run(tokensCommand, ['revoke', token.id, '--data', data]), [`revoked ${token.id} of account acme`]);
  const [revoked] = (await run(tokensCommand, ['list', 'acme', '--data', data])).map((line) => JSON.parse(line));
  t.same(await run(tokensCommand, ['revoke', token.id, '--data', data]), [
    `${token.id} of account acme was already revoked at ${revoked.revoked_at}`,
  ]);
  const [after] = (await run(tokensCommand, ['list', 'acme', '--data', data])).map((line) => JSON.parse(line));
  t.equal(after.revoked_at, revoked.revoked_at, 'the first revocation time stays');
});

t.test('cli - serve refused for a port in use leaves no data directory behind', async (t) => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  t.teardown(() => holder.close());
  const port = (holder.address() as { port: number }).port;
  const data = join(tempDataDir(t), 'new-directory');
  await t.rejects(run(serveCommand, ['--host', '127.0.0.1', '--port', String(port), '--data', data]), {
    constructor: CommandFailure,
    message: `port ${port} is in use`,
  });
  t.equal(existsSync(data), false);
});

t.test('cli - the resource report gives UTC minutes and distances in the largest unit', async (t) => {
  const now = Date.parse('2026-11-26T22:40:30.000Z');
  t.equal(utcMinute(1795721519070.5403), '2026-11-26 19:31 UTC', 'a fractional epoch time reads as its minute');
  t.equal(fromNow(now + 6 * 3_600_000 - 1_500, now), 'in 6 h');
  t.equal(fromNow(now + 21_229_000, now), 'in 6 h', 'the issue\'s "in 21229s"');
  t.equal(fromNow(now - 3 * 60_000, now), '3 min ago');
  t.equal(fromNow(now - 2 * 86_400_000, now), '2 d ago');
  t.equal(fromNow(now + 12_000, now), 'in 12 s');
  t.equal(fromNow(now + 400, now), 'now');
  t.same(
    table([
      ['state', 'available'],
      ['last success', 'never'],
    ]),
    ['state         available', 'last success  never'],
  );
});

t.test('cli - the emulator help lists every fault mode', async (t) => {
  const help = helpText('emulator')!;
  for (const mode of faultModes) t.match(help, new RegExp(`^ {2}${mode} +\\S`, 'm'), mode);
  t.match(help, /POST http:\/\/127\.0\.0\.1:PORT\/_emulator\/faults/);
});

t.test('front page - a browser gets links, an API client its JSON 404, and no answer names uWebSockets', async (t) => {
  const { url } = await startTestService(t);
  const page = await fetch(`${url}/`, { headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
  t.equal(page.status, 200);
  t.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  t.equal(page.headers.get('content-security-policy'), contentSecurityPolicy);
  t.equal(page.headers.get('x-frame-options'), 'DENY');
  const links = [...(await page.text()).matchAll(/<a href="([^"]+)">([^<]+)<\/a>/g)].map(([, href, label]) => [href, label]);
  t.same(links, [
    ['/dashboard', 'Dashboard'],
    ['/api/v1/openapi.json', 'OpenAPI document'],
    ['/readyz', 'Readiness'],
  ]);
  for (const accept of [undefined, '*/*', 'application/json']) {
    const answer = await fetch(`${url}/`, { headers: accept === undefined ? {} : { accept } });
    t.equal(answer.status, 404, `Accept ${accept}`);
    t.equal(answer.headers.get('content-type'), 'application/json');
    t.same(await answer.json(), { error: 'No such endpoint: GET /' });
    t.equal(answer.headers.get('uwebsockets'), null, 'no uWebSockets header');
  }
  t.equal(page.headers.get('uwebsockets'), null);
  const document = await fetch(`${url}/api/v1/openapi.json`);
  t.equal(document.headers.get('uwebsockets'), null);
  t.equal(typeof document.headers.get('date'), 'string', 'Date stays');
});
