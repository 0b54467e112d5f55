// Account and token commands on a data directory (docs/operations.md#accounts, "Tokens"), in
// process (runCli); their effect on a running server is test/cli/accounts.system.test.ts's.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { cliInProcess as cli, jsonLines, lastLine } from '../helpers/cli.js';
import { tempDataDir } from '../helpers/service.js';

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
    const result = await cli([...args, '--data', missing]);
    t.equal(result.status, 2, args.join(' '));
    t.match(result.stderr, /no data store there/, args.join(' '));
    t.equal(existsSync(missing), false, `${args.join(' ')} created nothing`);
  }
});

t.test('accounts - list, update and delete', async (t) => {
  const data = tempDataDir(t);
  await cli(['accounts', 'create', 'acme', '--data', data]);
  await cli(['accounts', 'create', 'zeta', '--plan', 'paid', '--data', data]);
  t.same(
    jsonLines((await cli(['accounts', 'list', '--data', data])).stdout).map((a) => [a.name, a.plan, a.quota]),
    [
      ['acme', 'free', 500],
      ['zeta', 'paid', null],
    ],
  );

  const updated = await cli(['accounts', 'update', 'acme', '--quota', '7', '--rate', '9/30s', '--data', data]);
  t.equal(updated.status, 0, updated.stderr);
  t.match(JSON.parse(updated.stdout), { name: 'acme', plan: 'free', quota: 7, rate: { limit: 9, window_ms: 30_000 } });
  t.match(
    JSON.parse((await cli(['accounts', 'update', 'acme', '--plan', 'paid', '--data', data])).stdout),
    {
      plan: 'paid',
      quota: null,
      rate: { limit: 3000, window_ms: 60_000 },
    },
    'a new plan brings its own limits',
  );
  t.match(
    JSON.parse((await cli(['accounts', 'update', 'acme', '--plan', 'free', '--quota', 'none', '--data', data])).stdout),
    {
      plan: 'free',
      quota: null,
      rate: { limit: 60, window_ms: 60_000 },
    },
    'unless they are given too',
  );
  const nobody = await cli(['accounts', 'update', 'nobody', '--quota', '1', '--data', data]);
  t.equal(nobody.status, 2);
  t.equal(nobody.stderr, "datapoints: no account named 'nobody'\n");

  await cli(['tokens', 'create', 'acme', '--data', data]);
  const refused = await cli(['accounts', 'delete', 'acme', '--data', data]);
  t.equal(refused.status, 2);
  t.equal(refused.stderr, "datapoints: accounts delete removes account 'acme', its 1 token(s) and its usage: add --yes to confirm\n");
  t.equal(JSON.parse((await cli(['accounts', 'show', 'acme', '--data', data])).stdout).name, 'acme', 'nothing was deleted');
  const deleted = await cli(['accounts', 'delete', 'acme', '--yes', '--data', data]);
  t.equal(deleted.status, 0);
  t.equal(deleted.stdout, 'deleted account acme and its 1 token(s)\n');
  t.same(
    jsonLines((await cli(['accounts', 'list', '--data', data])).stdout).map((a) => a.name),
    ['zeta'],
  );
  t.equal((await cli(['tokens', 'list', 'acme', '--data', data])).stderr, "datapoints: no account named 'acme'\n");
  t.equal((await cli(['accounts', 'create', 'acme', '--data', data])).status, 0, 'the name can be used again');
  t.same((await cli(['tokens', 'list', 'acme', '--data', data])).stdout, '', 'with none of the old tokens');
});

t.test('tokens - notes, the shown start of each secret, and revoking by the secret itself', async (t) => {
  const data = tempDataDir(t);
  await cli(['accounts', 'create', 'acme', '--data', data]);
  const first = lastLine((await cli(['tokens', 'create', 'acme', '--note', 'ci runner', '--data', data])).stdout);
  const second = lastLine((await cli(['tokens', 'create', 'acme', '--data', data])).stdout);
  const listed = await cli(['tokens', 'list', 'acme', '--data', data]);
  const tokens = jsonLines(listed.stdout);
  t.match(tokens, [
    { id: /^tok_[0-9a-f]{12}$/, starts_with: first.slice(0, 8), note: 'ci runner', revoked_at: null },
    { id: /^tok_[0-9a-f]{12}$/, starts_with: second.slice(0, 8), note: null, revoked_at: null },
  ]);
  t.equal(tokens[0].starts_with.length, 8);
  t.notMatch(listed.stdout, first.slice(0, 9), 'never more of the secret than its first 8 characters');

  const revoked = await cli(['tokens', 'revoke', first, '--data', data]);
  t.equal(revoked.status, 0);
  t.equal(revoked.stdout, `revoked ${tokens[0].id} of account acme\n`);
  t.notMatch(revoked.stdout + revoked.stderr, first, 'the secret is not echoed');
  t.match(jsonLines((await cli(['tokens', 'list', 'acme', '--data', data])).stdout), [{ revoked_at: /^\d{4}-/ }, { revoked_at: null }]);
});
