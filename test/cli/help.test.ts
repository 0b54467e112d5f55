// Help and version (docs/operations.md#commands): on stdout with status 0; without a command
// the overview goes to stderr with status 2. In process (runCli); the binary's own statuses and
// its closed output pipe are test/cli/entry.system.test.ts's.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { cliInProcess as cli } from '../helpers/cli.js';

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

t.test('help - every way of asking prints the overview on stdout and exits 0', async (t) => {
  for (const args of [['--help'], ['-h'], ['help']]) {
    const result = await cli(args);
    t.equal(result.status, 0, args.join(' '));
    t.equal(result.stderr, '');
    t.match(result.stdout, /^usage: datapoints <command> \[arguments\] \[flags\]\n/);
    for (const command of ['serve', 'emulator', 'accounts', 'tokens', 'backup', 'resources', 'help']) {
      t.match(result.stdout, new RegExp(`\\n  ${command}\\b`), `${args.join(' ')} lists ${command}`);
    }
  }
});

t.test('help - no command prints the overview on stderr and exits 2', async (t) => {
  const result = await cli([]);
  t.equal(result.status, 2);
  t.equal(result.stdout, '');
  t.match(result.stderr, /^usage: datapoints <command>/);
});

t.test("help - a command's help names its flags, defaults and environment variables", async (t) => {
  for (const args of [
    ['help', 'serve'],
    ['serve', '--help'],
    ['serve', '-h'],
    ['serve', '--port', 'x', '--help'],
  ]) {
    const result = await cli(args);
    t.equal(result.status, 0, args.join(' '));
    t.match(result.stdout, /^usage: datapoints serve \[flags\]/);
    t.match(result.stdout, /--port N +HTTP port, 0 picks a free one \(env PORT; default 8080\)/);
    t.match(result.stdout, /--host H +listen address \(env HOST; default 0\.0\.0\.0\)/);
    t.match(result.stdout, /--data DIR +data directory \(env DATAPOINTS_DATA; default \.\/data\)/);
    t.match(result.stdout, /\(env DATAPOINTS_UPSTREAM; default real\)/);
    t.match(result.stdout, /\(default 6h; 1s to 30d\)/);
    t.match(result.stdout, /\(default 1m; 1s to 6h\)/);
  }
  t.match((await cli(['accounts', 'delete', '--help'])).stdout, /datapoints accounts delete NAME --yes/);
  t.match((await cli(['help', 'tokens'])).stdout, /datapoints tokens revoke TOKEN_ID\|SECRET/);
  t.match((await cli(['help', 'backup'])).stdout, /^usage: datapoints backup DIR/);
  t.match((await cli(['help', 'resources'])).stdout, /datapoints resources list \[--status S\] \[--platform P\] \[--limit N\]/);
  t.match((await cli(['help', 'emulator'])).stdout, /^usage: datapoints emulator \[--port N\]/);
});

t.test('help - help for an unknown command is a usage error', async (t) => {
  const result = await cli(['help', 'nonsense']);
  t.equal(result.status, 2);
  t.equal(result.stderr, "datapoints: no help for 'nonsense': commands are serve, emulator, accounts, tokens, backup, resources\n");
});

t.test('help - --version prints the package version', async (t) => {
  const result = await cli(['--version']);
  t.equal(result.status, 0);
  t.equal(result.stdout, `${version}\n`);
});
