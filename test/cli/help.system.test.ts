// Help and version (docs/operations.md#commands): on stdout with status 0; without a command
// the overview goes to stderr with status 2; a closed output pipe ends a command quietly.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import t from 'tap';
import { cli, cliPath } from '../helpers/cli.js';

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

t.test('help - every way of asking prints the overview on stdout and exits 0', async (t) => {
  for (const args of [['--help'], ['-h'], ['help']]) {
    const result = cli(args);
    t.equal(result.status, 0, args.join(' '));
    t.equal(result.stderr, '');
    t.match(result.stdout, /^usage: datapoints <command> \[arguments\] \[flags\]\n/);
    for (const command of ['serve', 'emulator', 'accounts', 'tokens', 'backup', 'resources', 'help']) {
      t.match(result.stdout, new RegExp(`\\n  ${command}\\b`), `${args.join(' ')} lists ${command}`);
    }
  }
});

t.test('help - no command prints the overview on stderr and exits 2', async (t) => {
  const result = cli([]);
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
    const result = cli(args);
    t.equal(result.status, 0, args.join(' '));
    t.match(result.stdout, /^usage: datapoints serve \[flags\]/);
    t.match(result.stdout, /--port N +HTTP port, 0 picks a free one \(env PORT; default 8080\)/);
    t.match(result.stdout, /--host H +listen address \(env HOST; default 0\.0\.0\.0\)/);
    t.match(result.stdout, /--data DIR +data directory \(env DATAPOINTS_DATA; default \.\/data\)/);
    t.match(result.stdout, /\(env DATAPOINTS_UPSTREAM; default real\)/);
    t.match(result.stdout, /\(default 6h; 1s to 30d\)/);
    t.match(result.stdout, /\(default 1m; 1s to 6h\)/);
  }
  t.match(cli(['accounts', 'delete', '--help']).stdout, /datapoints accounts delete NAME --yes/);
  t.match(cli(['help', 'tokens']).stdout, /datapoints tokens revoke TOKEN_ID\|SECRET/);
  t.match(cli(['help', 'backup']).stdout, /^usage: datapoints backup DIR/);
  t.match(cli(['help', 'resources']).stdout, /datapoints resources list \[--status S\] \[--platform P\] \[--limit N\]/);
  t.match(cli(['help', 'emulator']).stdout, /^usage: datapoints emulator \[--port N\]/);
});

t.test('help - help for an unknown command is a usage error', async (t) => {
  const result = cli(['help', 'nonsense']);
  t.equal(result.status, 2);
  t.equal(result.stderr, "datapoints: no help for 'nonsense': commands are serve, emulator, accounts, tokens, backup, resources\n");
});

t.test('help - --version prints the package version', async (t) => {
  const result = cli(['--version']);
  t.equal(result.status, 0);
  t.equal(result.stdout, `${version}\n`);
});

t.test('output - a reader that closes the pipe early ends the command quietly with 141, no stack', async (t) => {
  // The reader closes its end at once; the command, slower to start, writes into a closed pipe.
  const shell = `{ "${process.execPath}" "${cliPath}" help; echo "status $?" >&2; } | (exec 0<&-; sleep 1)`;
  const result = spawnSync('sh', ['-c', shell], { encoding: 'utf8' });
  t.equal(result.stderr, 'status 141\n');
});
