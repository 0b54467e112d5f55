// Usage shown is requests counted, not units reserved (docs/operations.md#accounts): a running
// server reserves quota in blocks, and every display (`accounts show` and `accounts usage` in
// another process, the dashboard's usage page, the console's accounts page) takes away the units
// it holds in hand, at most a second behind. A system test: the command line runs as a process.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import t from 'tap';
import { cliPath } from '../helpers/cli.js';
import { eventually, startTestService } from '../helpers/service.js';
import { signedIn, WebClient } from '../web/webClient.js';

const octocat = { resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] };
const password = 'a long enough password';

/** `datapoints accounts ...` on the data directory, run beside the server as an operator would. */
async function accounts(dataDir: string, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [cliPath, 'accounts', ...args, '--data', dataDir]);
  return stdout;
}

const shownUsed = async (dataDir: string) => JSON.parse(await accounts(dataDir, ['show', 'acme'])).usage.used as number;

t.test('usage shown - five counted searches show as 5 everywhere while the server runs, and after it stops', async (t) => {
  const ts = await startTestService(t);
  const token = await ts.tokenFor('acme');
  await ts.service.accounts.updateAccount('acme', { operator: true });
  for (let index = 0; index < 5; index++) t.equal((await ts.search(token, octocat)).status, 200);

  t.equal(
    await eventually(
      () => shownUsed(ts.dataDir),
      (used) => used === 5,
    ),
    5,
    'accounts show: requests counted',
  );
  const today = new Date().toISOString().slice(0, 10);
  t.same(JSON.parse(await accounts(ts.dataDir, ['usage', 'acme', '--days', '1'])), { day: today, requests: 5 }, 'accounts usage: per day');

  const client = new WebClient(ts.url);
  await signedIn(client, ts.dataDir, 'acme', password);
  const usage = await client.get('/dashboard/usage');
  t.match(usage.text, '<strong id="used">5</strong> of <strong>500</strong> requests this month');
  t.match(usage.text, `<tr><td>${today}</td><td>5</td></tr>`, 'the per-day table');
  t.match((await client.get('/console/accounts')).text, '<td>500</td><td>60/1m</td><td>5</td>', 'the console');

  await ts.service.stop();
  t.equal(await shownUsed(ts.dataDir), 5, 'at rest: the give-back left what was counted');
});
