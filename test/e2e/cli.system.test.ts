// The operator interface from the outside: the CLI and `serve` as child processes.
import t from 'tap';
import { cli, startServer, lastLine } from '../helpers/cli.js';
import { eventually, searchPath, tempDataDir } from '../helpers/service.js';
import type { SearchBody } from '../helpers/searchBody.js';

const body = JSON.stringify({ resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] });
const search = async (url: string, token: string) => {
  const response = await fetch(url + searchPath, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body });
  return { status: response.status, body: (await response.json()) as SearchBody };
};

t.test('cli - serve prints its address, obeys tokens changed while it runs, and stops on SIGTERM', async (t) => {
  const data = tempDataDir(t);
  cli(['accounts', 'create', 'acme', '--data', data]);
  const secret = lastLine(cli(['tokens', 'create', 'acme', '--data', data]).stdout);
  const server = await startServer(t, ['--data', data, '--upstream', 'emulator']);
  t.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  t.equal((await search(server.url, secret)).status, 200);

  const late = lastLine(cli(['tokens', 'create', 'acme', '--data', data]).stdout);
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
  const secret = lastLine(cli(['tokens', 'create', 'acme', '--data', data]).stdout);
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
