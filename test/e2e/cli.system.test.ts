// The operator interface from the outside: the CLI and `serve` as child processes.
import t from 'tap';
import { cli, startServer } from '../helpers/cli.js';
import { eventually, searchPath, tempDataDir } from '../helpers/service.js';
import type { SearchBody } from '../helpers/searchBody.js';

const body = JSON.stringify({ resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] });
const search = async (url: string, token: string) => {
  const response = await fetch(url + searchPath, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body });
  return { status: response.status, body: (await response.json()) as SearchBody };
};

t.test('cli - accounts and tokens', async (t) => {
  const data = tempDataDir(t);
  const created = cli(['accounts', 'create', 'acme', '--data', data, '--quota', '3', '--rate', '5/10s']);
  t.equal(created.status, 0, created.stderr);
  t.match(JSON.parse(created.stdout), {
    name: 'acme',
    plan: 'free',
    quota: 3,
    rate: { limit: 5, window_ms: 10_000 },
    usage: { used: 0, remaining: 3 },
  });
  t.match(JSON.parse(cli(['accounts', 'create', 'big', '--plan', 'paid', '--data', data]).stdout), {
    plan: 'paid',
    quota: null,
    rate: { limit: 3000, window_ms: 60_000 },
  });

  const token = cli(['tokens', 'create', 'acme', '--data', data]);
  t.equal(token.status, 0);
  const secret = token.stdout.trim().split('\n').at(-1)!;
  t.match(secret, /^dp_[A-Za-z0-9_-]{32}$/);
  const listed = cli(['tokens', 'list', 'acme', '--data', data]);
  const tokens = listed.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  t.equal(tokens.length, 1);
  t.match(tokens[0], { id: /^tok_[0-9a-f]{12}$/, last_used_at: null, revoked_at: null });
  t.notMatch(listed.stdout, secret, 'the secret is never shown again');
  const revoked = cli(['tokens', 'revoke', tokens[0].id, '--data', data]);
  t.equal(revoked.stdout.trim(), `revoked ${tokens[0].id} of account acme`);
  t.match(JSON.parse(cli(['tokens', 'list', 'acme', '--data', data]).stdout).revoked_at, /^\d{4}-/);
});

t.test('cli - a bad command or flag exits non-zero with one line on stderr', async (t) => {
  const data = tempDataDir(t);
  cli(['accounts', 'create', 'acme', '--data', data]);
  const cases: Array<[string[], RegExp]> = [
    [['bogus'], /^datapoints: unknown command 'bogus'/],
    [['accounts', 'create', 'acme', '--data', data], /^datapoints: account 'acme' already exists$/],
    [['accounts', 'create', 'x', '--plan', 'gold', '--data', data], /^datapoints: invalid --plan 'gold'/],
    [['accounts', 'create', 'x', '--quota', 'lots', '--data', data], /^datapoints: invalid --quota 'lots'/],
    [['accounts', 'create', 'x', '--rate', '5', '--data', data], /^datapoints: invalid --rate '5'/],
    [['accounts', 'create', 'bad name', '--data', data], /^datapoints: invalid account name 'bad name'/],
    [
      ['accounts', 'create', 'x', '--colour', 'red', '--data', data],
      /^datapoints: unknown flag '--colour' for accounts create; see datapoints help accounts$/,
    ],
    [['accounts', 'show', 'nobody', '--data', data], /^datapoints: no account named 'nobody'$/],
    [['tokens', 'create', 'nobody', '--data', data], /^datapoints: no account named 'nobody'$/],
    [['tokens', 'revoke', 'tok_000000000000', '--data', data], /^datapoints: no token with id 'tok_000000000000'$/],
    [['serve', '--port', 'eighty'], /^datapoints: invalid --port 'eighty'/],
    [['serve', '--fresh-for', '6 hours'], /^datapoints: invalid --fresh-for: invalid duration '6 hours'/],
    [['serve', '--upstream', 'ftp://x'], /^datapoints: invalid --upstream 'ftp:\/\/x'/],
  ];
  for (const [args, message] of cases) {
    const result = cli(args);
    t.equal(result.status, 2, args.join(' '));
    t.match(result.stderr.trim(), message);
    t.equal(result.stderr.trim().split('\n').length, 1, 'one line');
  }
});

t.test('cli - serve prints its address, obeys tokens changed while it runs, and stops on SIGTERM', async (t) => {
  const data = tempDataDir(t);
  cli(['accounts', 'create', 'acme', '--data', data]);
  const secret = cli(['tokens', 'create', 'acme', '--data', data]).stdout.trim().split('\n').at(-1)!;
  const server = await startServer(t, ['--data', data, '--upstream', 'emulator']);
  t.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  t.equal((await search(server.url, secret)).status, 200);

  const late = cli(['tokens', 'create', 'acme', '--data', data]).stdout.trim().split('\n').at(-1)!;
  t.equal(
    (
      await eventually(
        () => search(server.url, late),
        (a) => a.status === 200,
        1_000,
      )
    ).status,
    200,
    'a new token works within 1 s',
  );
  const id = JSON.parse(cli(['tokens', 'list', 'acme', '--data', data]).stdout.split('\n')[0]!).id;
  cli(['tokens', 'revoke', id, '--data', data]);
  const refusedAt = Date.now();
  const refused = await eventually(
    () => search(server.url, secret),
    (a) => a.status === 401,
    1_000,
  );
  t.equal(refused.status, 401, `revoked token refused after ${Date.now() - refusedAt} ms`);

  const shown = JSON.parse(cli(['accounts', 'show', 'acme', '--data', data]).stdout);
  t.ok(shown.usage.used >= 2, `usage while running: ${shown.usage.used}`);

  const stopped = await server.stop('SIGTERM');
  t.equal(stopped.code, 0);
  t.ok(stopped.ms < 5_000, `stopped in ${stopped.ms} ms`);
});

t.test('cli - a restart on the same data keeps tokens, usage and snapshots', async (t) => {
  const data = tempDataDir(t);
  cli(['accounts', 'create', 'acme', '--data', data]);
  const secret = cli(['tokens', 'create', 'acme', '--data', data]).stdout.trim().split('\n').at(-1)!;
  const first = await startServer(t, ['--data', data, '--upstream', 'emulator']);
  const collected = await eventually(
    () => search(first.url, secret),
    (a) => a.body.data?.[0]?.status === 'available',
  );
  t.equal(collected.body.data[0]?.status, 'available');
  t.equal((await first.stop('SIGINT')).code, 0);
  // Read after the stop: while a server runs, usage includes quota reserved ahead (docs/guarantees.md).
  const usedBefore = JSON.parse(cli(['accounts', 'show', 'acme', '--data', data]).stdout).usage.used;

  const second = await startServer(t, ['--data', data, '--upstream', 'emulator']);
  const again = await search(second.url, secret);
  t.equal(again.status, 200, 'the token survived');
  t.same(again.body.data[0], collected.body.data[0], 'the snapshot survived: available at once, same datapoints');
  t.equal(JSON.parse(cli(['accounts', 'show', 'acme', '--data', data]).stdout).usage.used, usedBefore + 1, 'usage continued');
  await second.stop();
});
