// The operator's account and token commands and their mistakes, in process (runCli); `serve`
// as a child process beside them is test/e2e/cli.system.test.ts's.
import t from 'tap';
import { cliInProcess as cli, lastLine } from '../helpers/cli.js';
import { tempDataDir } from '../helpers/service.js';

t.test('cli - accounts and tokens', async (t) => {
  const data = tempDataDir(t);
  const created = await cli(['accounts', 'create', 'acme', '--data', data, '--quota', '3', '--rate', '5/10s']);
  t.equal(created.status, 0, created.stderr);
  t.match(JSON.parse(created.stdout), {
    name: 'acme',
    plan: 'free',
    quota: 3,
    rate: { limit: 5, window_ms: 10_000 },
    usage: { used: 0, remaining: 3 },
  });
  t.match(JSON.parse((await cli(['accounts', 'create', 'big', '--plan', 'paid', '--data', data])).stdout), {
    plan: 'paid',
    quota: null,
    rate: { limit: 3000, window_ms: 60_000 },
  });

  const token = await cli(['tokens', 'create', 'acme', '--data', data]);
  t.equal(token.status, 0);
  const secret = lastLine(token.stdout);
  t.match(secret, /^dp_[A-Za-z0-9_-]{32}$/);
  const listed = await cli(['tokens', 'list', 'acme', '--data', data]);
  const tokens = listed.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  t.equal(tokens.length, 1);
  t.match(tokens[0], { id: /^tok_[0-9a-f]{12}$/, last_used_at: null, revoked_at: null });
  t.notMatch(listed.stdout, secret, 'the secret is never shown again');
  const revoked = await cli(['tokens', 'revoke', tokens[0].id, '--data', data]);
  t.equal(revoked.stdout.trim(), `revoked ${tokens[0].id} of account acme`);
  t.match(JSON.parse((await cli(['tokens', 'list', 'acme', '--data', data])).stdout).revoked_at, /^\d{4}-/);
});

t.test('cli - a bad command or flag exits non-zero with one line on stderr', async (t) => {
  const data = tempDataDir(t);
  await cli(['accounts', 'create', 'acme', '--data', data]);
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
    const result = await cli(args);
    t.equal(result.status, 2, args.join(' '));
    t.match(result.stderr.trim(), message);
    t.equal(result.stderr.trim().split('\n').length, 1, 'one line');
  }
});
