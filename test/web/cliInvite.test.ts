// `datapoints accounts invite` and the operator role on the command line (docs/dashboard.md,
// "Sign-in", "Operator role"), in process (runCli); serve's flags are test/web/cli.system.test.ts's.
import t from 'tap';
import { openDatabases } from '../../src/store/environment.js';
import { digestSecret } from '../../src/web/secrets.js';
import { cliInProcess as cli } from '../helpers/cli.js';
import { tempDataDir } from '../helpers/service.js';

t.test('accounts invite - prints a one-time link with the secret in its fragment; stores only its digest', async (t) => {
  const dir = tempDataDir(t);
  t.equal((await cli(['accounts', 'create', 'alice', '--data', dir])).status, 0);
  const before = Date.now();
  const invited = await cli(['accounts', 'invite', 'alice', '--data', dir, '--url', 'https://dp.example.org:8443/']);
  t.equal(invited.status, 0, invited.stderr);
  const [first, link] = invited.stdout.trim().split('\n');
  t.match(first, /^invite for account alice, valid until \d{4}-\d\d-\d\dT[\d:.]+Z; it works once:$/);
  const match = /^https:\/\/dp\.example\.org:8443\/dashboard\/invite#([A-Za-z0-9_-]{43})$/.exec(link!);
  t.ok(match, `the link: ${link}`);
  const secret = match![1]!;
  const dbs = openDatabases(dir, { create: false });
  const invite = dbs.invites.get(digestSecret(secret));
  t.equal(dbs.invites.get(secret), undefined, 'the secret itself is no key');
  t.equal(invite?.account, 'alice');
  t.ok(invite!.expiresAt >= before + 24 * 3_600_000 && invite!.expiresAt <= Date.now() + 24 * 3_600_000, 'valid 24 hours');
  await dbs.root.close();
  const defaulted = await cli(['accounts', 'invite', 'alice', '--data', dir]);
  t.match(defaulted.stdout, /\nhttp:\/\/localhost:8080\/dashboard\/invite#[A-Za-z0-9_-]{43}\n$/);
});

t.test('accounts invite - bad input is one line and exit 2', async (t) => {
  const dir = tempDataDir(t);
  await cli(['accounts', 'create', 'alice', '--data', dir]);
  t.same(await cli(['accounts', 'invite', 'bob', '--data', dir]), {
    status: 2,
    stdout: '',
    stderr: "datapoints: no account named 'bob'\n",
  });
  t.same(await cli(['accounts', 'invite', 'alice', '--data', dir, '--url', 'ftp://x']), {
    status: 2,
    stdout: '',
    stderr: "datapoints: invalid --url 'ftp://x': give the server's address, like http://HOST:PORT\n",
  });
  t.equal((await cli(['accounts', 'invite', '--data', dir])).stderr, 'datapoints: an account NAME is required\n');
});

t.test('accounts --operator - no operator by default; create --operator, update --operator true|false', async (t) => {
  const dir = tempDataDir(t);
  const plain = JSON.parse((await cli(['accounts', 'create', 'alice', '--data', dir])).stdout);
  t.equal(plain.operator, undefined);
  t.equal(JSON.parse((await cli(['accounts', 'create', 'root', '--operator', '--data', dir])).stdout).operator, true);
  t.equal(JSON.parse((await cli(['accounts', 'update', 'alice', '--operator', 'true', '--data', dir])).stdout).operator, true);
  t.equal(JSON.parse((await cli(['accounts', 'update', 'alice', '--operator', 'false', '--data', dir])).stdout).operator, undefined);
  t.same(await cli(['accounts', 'update', 'alice', '--operator', 'yes', '--data', dir]), {
    status: 2,
    stdout: '',
    stderr: "datapoints: invalid --operator 'yes': use --operator true or --operator false\n",
  });
});
