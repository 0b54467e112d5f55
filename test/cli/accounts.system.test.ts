// Everyday account and token commands (docs/operations.md#accounts, "Tokens"), the data
// directory they work on, and their effect on a running server within one second. The commands
// alone, on a data directory without a server, are test/cli/accounts.test.ts's. The commands run
// in process (runCli, as the binary runs them) beside one server process that serves every test:
// each test has its own account, and the usage test, which stops the server, is last.
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { cliInProcess, jsonLines, lastLine, startServer } from '../helpers/cli.js';
import { eventually, searchPath, tempDataDir } from '../helpers/service.js';

const body = JSON.stringify({ resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] });
const searchStatus = async (url: string, secret: string) =>
  (await fetch(url + searchPath, { method: 'POST', headers: { authorization: `Bearer ${secret}` }, body })).status;

const data = tempDataDir(t);
const server = await startServer(t, ['--data', data, '--upstream', 'emulator']);

/** Polls the server until `secret` is answered `status`, for at most the promised second. */
async function answersWithin1s(t: Test, secret: string, status: number, message = `answered ${status}`) {
  t.equal(
    await eventually(
      () => searchStatus(server.url, secret),
      (now) => now === status,
      1_000,
    ),
    status,
    message,
  );
}
const cli = (args: string[]) => cliInProcess([...args, '--data', data]);

t.test('accounts - DATAPOINTS_DATA is honoured by every command, and --data wins over it', async (t) => {
  const env = { DATAPOINTS_DATA: data };
  t.equal((await cliInProcess(['accounts', 'create', 'envy'], env)).status, 0);
  const secret = lastLine((await cliInProcess(['tokens', 'create', 'envy'], env)).stdout);
  t.equal(JSON.parse((await cliInProcess(['accounts', 'show', 'envy'], env)).stdout).name, 'envy');
  t.equal(jsonLines((await cliInProcess(['tokens', 'list', 'envy'], env)).stdout).length, 1);
  // The server on the directory the variable names knows the token made through it.
  await answersWithin1s(t, secret, 200);

  const other = join(tempDataDir(t), 'other');
  const flagWins = await cliInProcess(['accounts', 'show', 'envy', '--data', other], env);
  t.equal(flagWins.status, 2);
  t.equal(
    flagWins.stderr,
    `datapoints: invalid --data '${other}': no data store there (set --data or DATAPOINTS_DATA to the server's directory)\n`,
  );
});

t.test('accounts - update, delete and revoke-by-secret take effect on a running server within 1 s', async (t) => {
  await cli(['accounts', 'create', 'acme']);
  await cli(['accounts', 'create', 'beta']);
  const acme = lastLine((await cli(['tokens', 'create', 'acme'])).stdout);
  const beta = lastLine((await cli(['tokens', 'create', 'beta'])).stdout);
  const spare = lastLine((await cli(['tokens', 'create', 'beta'])).stdout);
  await answersWithin1s(t, acme, 200);

  await cli(['accounts', 'update', 'acme', '--quota', '1']);
  await answersWithin1s(t, acme, 403, 'quota of 1 used up');

  await cli(['accounts', 'delete', 'acme', '--yes']);
  await answersWithin1s(t, acme, 401, 'deleted account');

  t.equal(await searchStatus(server.url, beta), 200);
  await cli(['tokens', 'revoke', beta]);
  await answersWithin1s(t, beta, 401, 'revoked by secret');
  t.equal(await searchStatus(server.url, spare), 200, "the account's other token still works");
});

t.test('accounts - suspend and resume, shown by show, in force on a running server within 1 s', async (t) => {
  await cli(['accounts', 'create', 'gamma']);
  const secret = lastLine((await cli(['tokens', 'create', 'gamma'])).stdout);
  t.equal(JSON.parse((await cli(['accounts', 'show', 'gamma'])).stdout).suspended, null, 'not suspended at first');
  await answersWithin1s(t, secret, 200);

  const suspended = await cli(['accounts', 'suspend', 'gamma', '--reason', 'unpaid invoice']);
  t.equal(suspended.status, 0, suspended.stderr);
  const shown = JSON.parse(suspended.stdout);
  t.match(shown, { name: 'gamma', suspended: { at: /^\d{4}-\d{2}-\d{2}T/, reason: 'unpaid invoice' } });
  await answersWithin1s(t, secret, 403, 'refused within 1 s');
  const again = JSON.parse((await cli(['accounts', 'suspend', 'gamma'])).stdout);
  t.same(again.suspended, shown.suspended, 'suspending again keeps the time and the reason');
  t.same(JSON.parse((await cli(['accounts', 'show', 'gamma'])).stdout).suspended, shown.suspended);

  const resumed = await cli(['accounts', 'resume', 'gamma']);
  t.equal(resumed.status, 0, resumed.stderr);
  t.equal(JSON.parse(resumed.stdout).suspended, null);
  await answersWithin1s(t, secret, 200, 'served within 1 s');
  t.equal(JSON.parse((await cli(['accounts', 'resume', 'gamma'])).stdout).suspended, null, 'resuming again changes nothing');

  for (const [args, message] of [
    [['accounts', 'suspend', 'nobody'], "datapoints: no account named 'nobody'\n"],
    [['accounts', 'resume', 'nobody'], "datapoints: no account named 'nobody'\n"],
    [['accounts', 'suspend', 'gamma', '--reason', 'two\nlines'], 'datapoints: invalid --reason: give one line of 1 to 200 characters\n'],
    [['accounts', 'suspend', 'gamma', '--reason', 'x'.repeat(201)], 'datapoints: invalid --reason: give one line of 1 to 200 characters\n'],
    [['accounts', 'resume', 'gamma', '--reason', 'why'], null],
    [['accounts', 'suspend'], 'datapoints: an account NAME is required\n'],
  ] as const) {
    const result = await cli([...args]);
    t.equal(result.status, 2, args.join(' '));
    if (message) t.equal(result.stderr, message, args.join(' '));
    else t.match(result.stderr, /^datapoints: unknown flag '--reason' for accounts resume/, args.join(' '));
  }
  t.equal(JSON.parse((await cli(['accounts', 'show', 'gamma'])).stdout).suspended, null, 'refused commands changed nothing');
});

t.test('accounts - usage prints the requests of each of the last days, counted by a server', async (t) => {
  await cli(['accounts', 'create', 'delta']);
  const secret = lastLine((await cli(['tokens', 'create', 'delta'])).stdout);
  t.equal(
    await eventually(
      () => searchStatus(server.url, secret),
      (status) => status !== 401,
      1_000,
    ),
    200,
  );
  for (let request = 1; request < 3; request++) t.equal(await searchStatus(server.url, secret), 200);
  t.equal((await server.stop()).code, 0, 'a clean stop gives unspent quota back');
  const today = new Date().toISOString().slice(0, 10);
  const days = jsonLines((await cli(['accounts', 'usage', 'delta'])).stdout);
  t.equal(days.length, 30, '30 days unless told');
  t.same(days.at(-1), { day: today, requests: 3 });
  t.same(
    days.slice(0, -1).filter((day) => day.requests !== 0),
    [],
    'nothing on the days before',
  );
  t.same(jsonLines((await cli(['accounts', 'usage', 'delta', '--days', '1'])).stdout), [{ day: today, requests: 3 }]);
  t.equal(JSON.parse((await cli(['accounts', 'show', 'delta'])).stdout).usage.used, 3, 'the days add up to the month');
  for (const [args, message] of [
    [['accounts', 'usage', 'delta', '--days', '91'], "datapoints: invalid --days '91': give a whole number 1-90\n"],
    [['accounts', 'usage', 'delta', '--days', '0'], "datapoints: invalid --days '0': give a whole number 1-90\n"],
    [['accounts', 'usage', 'nobody'], "datapoints: no account named 'nobody'\n"],
  ] as const) {
    const result = await cli([...args]);
    t.equal(result.status, 2, args.join(' '));
    t.equal(result.stderr, message, args.join(' '));
  }
});
