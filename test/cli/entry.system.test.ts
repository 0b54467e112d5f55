// The binary around runCli (src/cli.ts): each way a command ends shows as the process's exit
// status (docs/operations.md#exit-codes), and a closed output pipe ends a command quietly. What
// the commands print is shown in process (test/cli/help.test.ts, test/cli/usageErrors.test.ts).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { cli, cliPath } from '../helpers/cli.js';
import { tempDataDir } from '../helpers/service.js';

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

t.test('entry - the binary exits 0, 2 or 1 as the command ended, with its one line', async (t) => {
  t.same(cli(['--version']), { status: 0, stdout: `${version}\n`, stderr: '' }, '--version');
  const none = cli([]);
  t.equal(none.status, 2, 'no command');
  t.match(none.stderr, /^usage: datapoints <command>/);
  t.same(cli(['serve', '--port', '70000']), {
    status: 2,
    stdout: '',
    stderr: "datapoints: invalid --port '70000': give a port number 0-65535\n",
  });
  const data = tempDataDir(t);
  mkdirSync(join(data, 'datapoints.mdb'));
  const unopenable = cli(['accounts', 'list', '--data', data]);
  t.equal(unopenable.status, 1, 'a store that cannot be opened');
  t.match(unopenable.stderr, new RegExp(`^datapoints: cannot open the data store in '${data}': [^\\n]+\\n$`));
});

t.test('output - a reader that closes the pipe early ends the command quietly with 141, no stack', async (t) => {
  // The reader closes its end at once; the command, slower to start, writes into a closed pipe.
  const shell = `{ "${process.execPath}" "${cliPath}" help; echo "status $?" >&2; } | (exec 0<&-; sleep 1)`;
  const result = spawnSync('sh', ['-c', shell], { encoding: 'utf8' });
  t.equal(result.stderr, 'status 141\n');
});
