// Everyday account and token commands (docs/operations.md#accounts, "Tokens"), the data
// directory they work on, and their effect on a running server within one second. The commands
// alone, on a data directory without a server, are test/cli/accounts.test.ts's.
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import t from 'tap';
import { cli, cliPath, jsonLines, lastLine, startServer } from '../helpers/cli.js';
import { eventually, searchPath, tempDataDir } from '../helpers/service.js';

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
