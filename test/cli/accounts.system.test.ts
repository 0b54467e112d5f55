// Everyday account and token commands (docs/operations.md#accounts, "Tokens"), the data
// directory they work on, and their effect on a running server within one second.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import t from 'tap';
import { cli, cliPath, startServer } from '../helpers/cli.js';
import { eventually, searchPath, tempDataDir } from '../helpers/service.js';

const lastLine = (text: string) => text.trim().split('\n').at(-1)!;
const jsonLines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
const body = JSON.stringify({ resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] });
const searchStatus = async (url: string, secret: string) =>
  (await fetch(url + searchPath, { method: 'POST', headers: { authorization: `Bearer ${secret}` }, body })).status;

function withEnv(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

t.test('accounts - DATAPOINTS_DATA is honoured by every command, and --data wins over it', async (t) => {
  const data = tempDataDir(t);
  const env = { DATAPOINTS_DATA: data };
  t.equal(withEnv(['accounts', 'create', 'acme'], env).status, 0);
  const secret = lastLine(withEnv(['tokens', 'create', 'acme'], env).stdout);
  t.equal(JSON.parse(withEnv(['accounts', 'show', 'acme'], env).stdout).name, 'acme');
  t.equal(jsonLines(withEnv(['tokens', 'list', 'acme'], env).stdout).length, 1);
  // The server started with the same variable knows the token made through it.
  const server = await startServer(t, ['--data', data, '--upstream', 'emulator']);
  t.equal(await searchStatus(server.url, secret), 200);
  await server.stop();

  const other = join(tempDataDir(t), 'other');
  const flagWins = withEnv(['accounts', 'show', 'acme', '--data', other], env);
  t.equal(flagWins.status, 2);
  t.equal(
    flagWins.stderr,
    `datapoints: invalid --data '${other}': no data store there (set --data or DATAPOINTS_DATA to the server's directory)\n`,
  );
});

t.test('accounts - read-only commands with a mistyped directory create nothing', async (t) => {
  const missing = join(tempDataDir(t), 'typo');
  for (const args of [
    ['accounts', 'show', 'acme'],
    ['accounts', 'list'],
    ['accounts', 'update', 'acme', '--quota', '5'],
    ['accounts', 'delete', 'acme', '--yes'],
    ['tokens', 'list', 'acme'],
    ['tokens', 'create', 'acme'],
    ['tokens', 'revoke', 'tok_000000000000'],
    ['resources', 'list'],
    ['resources', 'show', 'github', 'account', 'x'],
    ['backup', join(tempDataDir(t), 'copy')],
  ]) {
    const result = cli([...args, '--data', missing]);
    t.equal(result.status, 2, args.join(' '));
    t.match(result.stderr, /no data store there/, args.join(' '));
    t.equal(existsSync(missing), false, `${args.join(' ')} created nothing`);
  }
});

t.test('accounts - list, update and delete', async (t) => {
  const data = tempDataDir(t);
  cli(['accounts', 'create', 'acme', '--data', data]);
  cli(['accounts', 'create', 'zeta', '--plan', 'paid', '--data', data]);
  t.same(
    jsonLines(cli(['accounts', 'list', '--data', data]).stdout).map((a) => [a.name, a.plan, a.quota]),
    [
      ['acme', 'free', 500],
      ['zeta', 'paid', null],
    ],
  );

  const updated = cli(['accounts', 'update', 'acme', '--quota', '7', '--rate', '9/30s', '--data', data]);
  t.equal(updated.status, 0, updated.stderr);
  t.match(JSON.parse(updated.stdout), { name: 'acme', plan: 'free', quota: 7, rate: { limit: 9, window_ms: 30_000 } });
  t.match(
    JSON.parse(cli(['accounts', 'update', 'acme', '--plan', 'paid', '--data', data]).stdout),
    {
      plan: 'paid',
      quota: null,
      rate: { limit: 3000, window_ms: 60_000 },
    },
    'a new plan brings its own limits',
  );
  t.match(
    JSON.parse(cli(['accounts', 'update', 'acme', '--plan', 'free', '--quota', 'none', '--data', data]).stdout),
    {
      plan: 'free',
      quota: null,
      rate: { limit: 60, window_ms: 60_000 },
    },
    'unless they are given too',
  );
  const nobody = cli(['accounts', 'update', 'nobody', '--quota', '1', '--data', data]);
  t.equal(nobody.status, 2);
  t.equal(nobody.stderr, "datapoints: no account named 'nobody'\n");

  cli(['tokens', 'create', 'acme', '--data', data]);
  const refused = cli(['accounts', 'delete', 'acme', '--data', data]);
  t.equal(refused.status, 2);
  t.equal(refused.stderr, "datapoints: accounts delete removes account 'acme', its 1 token(s) and its usage: add --yes to confirm\n");
  t.equal(JSON.parse(cli(['accounts', 'show', 'acme', '--data', data]).stdout).name, 'acme', 'nothing was deleted');
  const deleted = cli(['accounts', 'delete', 'acme', '--yes', '--data', data]);
  t.equal(deleted.status, 0);
  t.equal(deleted.stdout, 'deleted account acme and its 1 token(s)\n');
  t.same(
    jsonLines(cli(['accounts', 'list', '--data', data]).stdout).map((a) => a.name),
    ['zeta'],
  );
  t.equal(cli(['tokens', 'list', 'acme', '--data', data]).stderr, "datapoints: no account named 'acme'\n");
  t.equal(cli(['accounts', 'create', 'acme', '--data', data]).status, 0, 'the name can be used again');
  t.same(cli(['tokens', 'list', 'acme', '--data', data]).stdout, '', 'with none of the old tokens');
});

t.test('tokens - notes, the shown start of each secret, and revoking by the secret itself', async (t) => {
  const data = tempDataDir(t);
  cli(['accounts', 'create', 'acme', '--data', data]);
  const first = lastLine(cli(['tokens', 'create', 'acme', '--note', 'ci runner', '--data', data]).stdout);
  const second = lastLine(cli(['tokens', 'create', 'acme', '--data', data]).stdout);
  const listed = cli(['tokens', 'list', 'acme', '--data', data]);
  const tokens = jsonLines(listed.stdout);
  t.match(tokens, [
    { id: /^tok_[0-9a-f]{12}$/, starts_with: first.slice(0, 8), note: 'ci runner', revoked_at: null },
    { id: /^tok_[0-9a-f]{12}$/, starts_with: second.slice(0, 8), note: null, revoked_at: null },
  ]);
  t.equal(tokens[0].starts_with.length, 8);
  t.notMatch(listed.stdout, first.slice(0, 9), 'never more of the secret than its first 8 characters');

  const revoked = cli(['tokens', 'revoke', first, '--data', data]);
  t.equal(revoked.status, 0);
  t.equal(revoked.stdout, `revoked ${tokens[0].id} of account acme\n`);
  t.notMatch(revoked.stdout + revoked.stderr, first, 'the secret is not echoed');
  t.match(jsonLines(cli(['tokens', 'list', 'acme', '--data', data]).stdout), [{ revoked_at: /^\d{4}-/ }, { revoked_at: null }]);
});

t.test('accounts - update, delete and revoke-by-secret take effect on a running server within 1 s', async (t) => {
  const data = tempDataDir(t);
  cli(['accounts', 'create', 'acme', '--data', data]);
  cli(['accounts', 'create', 'beta', '--data', data]);
  const acme = lastLine(cli(['tokens', 'create', 'acme', '--data', data]).stdout);
  const beta = lastLine(cli(['tokens', 'create', 'beta', '--data', data]).stdout);
  const spare = lastLine(cli(['tokens', 'create', 'beta', '--data', data]).stdout);
  const server = await startServer(t, ['--data', data, '--upstream', 'emulator']);
  t.equal(await searchStatus(server.url, acme), 200);

  cli(['accounts', 'update', 'acme', '--quota', '1', '--data', data]);
  t.equal(
    await eventually(
      () => searchStatus(server.url, acme),
      (status) => status === 403,
      1_000,
    ),
    403,
    'quota of 1 used up',
  );

  cli(['accounts', 'delete', 'acme', '--yes', '--data', data]);
  t.equal(
    await eventually(
      () => searchStatus(server.url, acme),
      (status) => status === 401,
      1_000,
    ),
    401,
    'deleted account',
  );

  t.equal(await searchStatus(server.url, beta), 200);
  cli(['tokens', 'revoke', beta, '--data', data]);
  t.equal(
    await eventually(
      () => searchStatus(server.url, beta),
      (status) => status === 401,
      1_000,
    ),
    401,
    'revoked by secret',
  );
  t.equal(await searchStatus(server.url, spare), 200, "the account's other token still works");
  t.equal((await server.stop()).code, 0);
});

t.test('accounts - suspend and resume, shown by show, in force on a running server within 1 s', async (t) => {
  const data = tempDataDir(t);
  cli(['accounts', 'create', 'acme', '--data', data]);
  const secret = lastLine(cli(['tokens', 'create', 'acme', '--data', data]).stdout);
  t.equal(JSON.parse(cli(['accounts', 'show', 'acme', '--data', data]).stdout).suspended, null, 'not suspended at first');
  const server = await startServer(t, ['--data', data, '--upstream', 'emulator']);
  t.equal(await searchStatus(server.url, secret), 200);

  const suspended = cli(['accounts', 'suspend', 'acme', '--reason', 'unpaid invoice', '--data', data]);
  t.equal(suspended.status, 0, suspended.stderr);
  const shown = JSON.parse(suspended.stdout);
  t.match(shown, { name: 'acme', suspended: { at: /^\d{4}-\d{2}-\d{2}T/, reason: 'unpaid invoice' } });
  t.equal(
    await eventually(
      () => searchStatus(server.url, secret),
      (status) => status === 403,
      1_000,
    ),
    403,
    'refused within 1 s',
  );
  const again = JSON.parse(cli(['accounts', 'suspend', 'acme', '--data', data]).stdout);
  t.same(again.suspended, shown.suspended, 'suspending again keeps the time and the reason');
  t.same(JSON.parse(cli(['accounts', 'show', 'acme', '--data', data]).stdout).suspended, shown.suspended);

  const resumed = cli(['accounts', 'resume', 'acme', '--data', data]);
  t.equal(resumed.status, 0, resumed.stderr);
  t.equal(JSON.parse(resumed.stdout).suspended, null);
  t.equal(
    await eventually(
      () => searchStatus(server.url, secret),
      (status) => status === 200,
      1_000,
    ),
    200,
    'served within 1 s',
  );
  t.equal(JSON.parse(cli(['accounts', 'resume', 'acme', '--data', data]).stdout).suspended, null, 'resuming again changes nothing');
  t.equal((await server.stop()).code, 0);

  for (const [args, message] of [
    [['accounts', 'suspend', 'nobody'], "datapoints: no account named 'nobody'\n"],
    [['accounts', 'resume', 'nobody'], "datapoints: no account named 'nobody'\n"],
    [['accounts', 'suspend', 'acme', '--reason', 'two\nlines'], 'datapoints: invalid --reason: give one line of 1 to 200 characters\n'],
    [['accounts', 'suspend', 'acme', '--reason', 'x'.repeat(201)], 'datapoints: invalid --reason: give one line of 1 to 200 characters\n'],
    [['accounts', 'resume', 'acme', '--reason', 'why'], null],
    [['accounts', 'suspend'], 'datapoints: an account NAME is required\n'],
  ] as const) {
    const result = cli([...args, '--data', data]);
    t.equal(result.status, 2, args.join(' '));
    if (message) t.equal(result.stderr, message, args.join(' '));
    else t.match(result.stderr, /^datapoints: unknown flag '--reason' for accounts resume/, args.join(' '));
  }
  t.equal(JSON.parse(cli(['accounts', 'show', 'acme', '--data', data]).stdout).suspended, null, 'refused commands changed nothing');
});

t.test('accounts - usage prints the requests of each of the last days, counted by a server', async (t) => {
  const data = tempDataDir(t);
  cli(['accounts', 'create', 'acme', '--data', data]);
  const secret = lastLine(cli(['tokens', 'create', 'acme', '--data', data]).stdout);
  const server = await startServer(t, ['--data', data, '--upstream', 'emulator']);
  for (let request = 0; request < 3; request++) t.equal(await searchStatus(server.url, secret), 200);
  t.equal((await server.stop()).code, 0, 'a clean stop gives unspent quota back');
  const today = new Date().toISOString().slice(0, 10);
  const days = jsonLines(cli(['accounts', 'usage', 'acme', '--data', data]).stdout);
  t.equal(days.length, 30, '30 days unless told');
  t.same(days.at(-1), { day: today, requests: 3 });
  t.same(
    days.slice(0, -1).filter((day) => day.requests !== 0),
    [],
    'nothing on the days before',
  );
  t.same(jsonLines(cli(['accounts', 'usage', 'acme', '--days', '1', '--data', data]).stdout), [{ day: today, requests: 3 }]);
  t.equal(JSON.parse(cli(['accounts', 'show', 'acme', '--data', data]).stdout).usage.used, 3, 'the days add up to the month');
  for (const [args, message] of [
    [['accounts', 'usage', 'acme', '--days', '91'], "datapoints: invalid --days '91': give a whole number 1-90\n"],
    [['accounts', 'usage', 'acme', '--days', '0'], "datapoints: invalid --days '0': give a whole number 1-90\n"],
    [['accounts', 'usage', 'nobody'], "datapoints: no account named 'nobody'\n"],
  ] as const) {
    const result = cli([...args, '--data', data]);
    t.equal(result.status, 2, args.join(' '));
    t.equal(result.stderr, message, args.join(' '));
  }
});
