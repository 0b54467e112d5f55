// "A bad command or flag exits 2 with one line on stderr" (docs/operations.md#exit-codes),
// for every kind of mistake; a store that cannot be opened exits 1 with one line. In process
// (runCli); test/cli/entry.system.test.ts shows the binary ends with the same statuses.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { cliInProcess as run } from '../helpers/cli.js';
import { tempDataDir } from '../helpers/service.js';

t.test('usage errors - each is one exact line on stderr and exit status 2', async (t) => {
  const data = tempDataDir(t);
  const file = join(data, 'a-file');
  writeFileSync(file, 'not a directory');
  await run(['accounts', 'create', 'acme', '--data', data]);
  const cases: Array<[string[], Record<string, string>, string]> = [
    [['serve', '--port', '-1'], {}, "--port needs a value; a value starting with '-' is written --port=VALUE"],
    [['serve', '--port=-1'], {}, "invalid --port '-1': give a port number 0-65535"],
    [['serve', '--port'], {}, '--port needs a value'],
    [['serve', '--port', '70000'], {}, "invalid --port '70000': give a port number 0-65535"],
    [['serve', '--verbose'], {}, "unknown flag '--verbose' for serve; see datapoints help serve"],
    [['serve', 'now'], {}, "unexpected argument 'now' for serve"],
    [['serve', '--host', '999.1.1.1'], {}, "invalid --host '999.1.1.1': give an IPv4 or IPv6 address or a host name"],
    [['serve', '--host', 'bad_host!'], {}, "invalid --host 'bad_host!': give an IPv4 or IPv6 address or a host name"],
    [['serve'], { PORT: 'abc' }, "invalid PORT 'abc': give a port number 0-65535"],
    [['serve'], { HOST: '1.2.3.999' }, "invalid HOST '1.2.3.999': give an IPv4 or IPv6 address or a host name"],
    [['serve', '--port', '0'], { LOG_LEVEL: 'bogus' }, "invalid LOG_LEVEL 'bogus': use trace, debug, info, warn, error, fatal, silent"],
    [['serve', '--retry-base', '0s'], {}, "invalid --retry-base '0s': give 1s to 6h"],
    [['serve', '--retry-base', '500ms'], {}, "invalid --retry-base '500ms': give 1s to 6h"],
    [['serve', '--retry-base', '7h'], {}, "invalid --retry-base '7h': give 1s to 6h"],
    [['serve', '--fresh-for', '0ms'], {}, "invalid --fresh-for '0ms': give 1s to 30d"],
    [['serve', '--history-detail', '30s'], {}, "invalid --history-detail '30s': give 1m to 90d"],
    [
      ['serve', '--history-detail', 'week'],
      {},
      "invalid --history-detail: invalid duration 'week': write it like 250ms, 30s, 1m, 6h or 1d",
    ],
    [['serve', '--history-days', '-1'], {}, "--history-days needs a value; a value starting with '-' is written --history-days=VALUE"],
    [['serve', '--history-days', '3651'], {}, "invalid --history-days '3651': give a whole number 0-3650"],
    [['serve', '--history-days', '1.5'], {}, "invalid --history-days '1.5': give a whole number 0-3650"],
    [['serve', '--fresh-for', '6 hours'], {}, "invalid --fresh-for: invalid duration '6 hours': write it like 250ms, 30s, 1m, 6h or 1d"],
    [['serve', '--upstream', 'ftp://x'], {}, "invalid --upstream 'ftp://x': use real, emulator or an http(s) URL"],
    [['serve'], { DATAPOINTS_UPSTREAM: 'nowhere' }, "invalid DATAPOINTS_UPSTREAM 'nowhere': use real, emulator or an http(s) URL"],
    [
      ['serve', '--allow-private-hosts', 'social.home.example,10.0.0.0/33'],
      {},
      "invalid --allow-private-hosts: '10.0.0.0/33' is neither a host name nor an address range (such as 10.0.0.0/8 or fd00::/8)",
    ],
    [
      ['serve'],
      { DATAPOINTS_ALLOW_PRIVATE_HOSTS: 'https://social.home.example' },
      "invalid DATAPOINTS_ALLOW_PRIVATE_HOSTS: 'https://social.home.example' is neither a host name nor an address range (such as 10.0.0.0/8 or fd00::/8)",
    ],
    [['serve', '--port', '0', '--data', file], {}, `invalid --data '${file}': it is a file, not a directory`],
    [
      ['serve', '--port', '0', '--data', join(file, 'below')],
      {},
      `invalid --data '${join(file, 'below')}': part of the path is a file, not a directory`,
    ],
    [['serve', '--port', '0', '--data', '/sys/datapoints-test'], {}, "invalid --data '/sys/datapoints-test': cannot write there (EPERM)"],
    [['serve', '--port', '0'], { DATAPOINTS_DATA: file }, `invalid DATAPOINTS_DATA '${file}': it is a file, not a directory`],
    [
      ['accounts', 'create', 'x', '--quota', '-5', '--data', data],
      {},
      "--quota needs a value; a value starting with '-' is written --quota=VALUE",
    ],
    [['accounts', 'create', 'x', '--quota=-5', '--data', data], {}, "invalid --quota '-5': give a whole number or 'none'"],
    [['accounts', 'create', 'x', '--rate', '5/0s', '--data', data], {}, "invalid --rate window '0s': give 1s to 31d"],
    [['accounts', 'create', 'x', '--rate', '0/1m', '--data', data], {}, "invalid --rate '0/1m': write it like 60/1m"],
    [
      ['accounts', 'frobnicate', 'x'],
      {},
      "unknown accounts command 'frobnicate': use create, show, list, update, suspend, resume, usage, delete or invite",
    ],
    [['accounts', 'update', 'acme', '--data', data], {}, 'accounts update needs --plan, --quota, --rate or --operator'],
    [
      ['tokens', 'create', 'acme', '--note', 'x'.repeat(201), '--data', data],
      {},
      'invalid --note: give one line of at most 200 characters',
    ],
    // Control characters (Unicode Cc: C0, DEL and C1, which holds NEL, a line break) would split the note's line.
    [['tokens', 'create', 'acme', '--note', 'two\nlines', '--data', data], {}, 'invalid --note: give one line of at most 200 characters'],
    [
      ['tokens', 'create', 'acme', '--note', 'next\u0085line', '--data', data],
      {},
      'invalid --note: give one line of at most 200 characters',
    ],
    [['tokens', 'revoke', 'dp_notarealsecret', '--data', data], {}, 'no token has that secret'],
    [
      ['resources', 'list', '--status', 'stuck', '--data', data],
      {},
      "invalid --status 'stuck': use pending, available, stale, unavailable, not_found",
    ],
    [['resources', 'list', '--limit', '0', '--data', data], {}, "invalid --limit '0': give a whole number 1-10000"],
    [['resources', 'show', 'myspace', 'account', 'tom', '--data', data], {}, "unknown platform and type 'myspace account'"],
    [['emulator', '--port', 'x'], {}, "invalid --port 'x': give a port number 0-65535"],
  ];
  for (const [args, env, message] of cases) {
    const result = await run(args, env);
    const label = `${Object.entries(env)
      .map(([k, v]) => `${k}=${v} `)
      .join('')}${args.join(' ')}`;
    t.equal(result.status, 2, label);
    t.equal(result.stderr, `datapoints: ${message}\n`, label);
  }
});

t.test('usage errors - a store that cannot be opened exits 1 with one line, no stack', async (t) => {
  const data = tempDataDir(t);
  // The environment's file is a directory: lmdb cannot open it.
  mkdirSync(join(data, 'datapoints.mdb'));
  for (const args of [
    ['accounts', 'list', '--data', data],
    ['serve', '--port', '0', '--data', data],
  ]) {
    const result = await run(args);
    t.equal(result.status, 1, args.join(' '));
    t.match(result.stderr, new RegExp(`^datapoints: cannot open the data store in '${data}': [^\\n]+\\n$`));
  }
});
