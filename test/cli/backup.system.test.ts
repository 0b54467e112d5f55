// `datapoints backup DIR` (docs/operations.md#backup): a consistent copy of a running
// server's store that a server can then run on.
import { join } from 'node:path';
import t from 'tap';
import { cli, startServer, lastLine } from '../helpers/cli.js';
import { eventually, searchPath, tempDataDir } from '../helpers/service.js';

const body = JSON.stringify({ resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] });
const search = async (url: string, secret: string) => {
  const response = await fetch(url + searchPath, { method: 'POST', headers: { authorization: `Bearer ${secret}` }, body });
  return { status: response.status, body: (await response.json()) as { data?: Array<{ status: string }> } };
};

t.test("backup - a hot copy of a running server's data serves the same accounts, tokens and resources", async (t) => {
  const data = tempDataDir(t);
  cli(['accounts', 'create', 'acme', '--data', data]);
  const secret = lastLine(cli(['tokens', 'create', 'acme', '--data', data]).stdout);
  const server = await startServer(t, ['--data', data, '--upstream', 'emulator']);
  const collected = await eventually(
    () => search(server.url, secret),
    (answer) => answer.body.data?.[0]?.status === 'available',
  );
  t.equal(collected.body.data?.[0]?.status, 'available');

  const target = join(tempDataDir(t), 'backup');
  const backup = cli(['backup', target, '--data', data]);
  t.equal(backup.status, 0, backup.stderr);
  t.equal(backup.stdout, `backed up ${data} into ${target}\n`);
  t.equal((await search(server.url, secret)).status, 200, 'the server kept serving');
  t.equal((await server.stop()).code, 0);

  const restored = await startServer(t, ['--data', target, '--upstream', 'emulator']);
  const again = await search(restored.url, secret);
  t.equal(again.status, 200, 'the token is in the copy');
  t.same(again.body.data?.[0], collected.body.data?.[0], 'so is the collected resource');
  await restored.stop();
});
