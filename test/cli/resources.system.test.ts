// `datapoints resources show|list` (docs/operations.md#resources) on the store of a running
// server, and the emulator's address printed after the listening line.
import t from 'tap';
import { cliInProcess, lastLine } from '../helpers/cli.js';
import { eventually, searchPath, tempDataDir } from '../helpers/service.js';
import { watchCli } from '../process/processes.js';

t.test('resources - show and list explain state and next due time, read while the server runs', async (t) => {
  const data = tempDataDir(t);
  await cliInProcess(['accounts', 'create', 'acme', '--data', data]);
  const secret = lastLine((await cliInProcess(['tokens', 'create', 'acme', '--data', data])).stdout);
  const server = watchCli(t, ['serve', '--host', '127.0.0.1', '--port', '0', '--data', data, '--upstream', 'emulator']);
  const [, url, emulatorUrl] = await server.waitFor(
    /^listening on (http:\/\/127\.0\.0\.1:\d+)\nemulator on (http:\/\/127\.0\.0\.1:\d+) \(faults: POST \/_emulator\/faults\)\n/,
  );
  t.equal(server.stdout().split('\n')[0], `listening on ${url}`, 'the listening line stays first');
  const fault = await fetch(`${emulatorUrl}/_emulator/faults`, {
    method: 'POST',
    body: JSON.stringify({ platform: 'github', identifier: 'broken', mode: 'error' }),
  });
  t.equal(fault.status, 204, 'the printed emulator address takes faults');

  const resources = [
    { platform: 'github', type: 'account', identifier: 'OctoCat' },
    { platform: 'github', type: 'account', identifier: 'broken' },
  ];
  const search = async () => {
    const response = await fetch(url + searchPath, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}` },
      body: JSON.stringify({ resources }),
    });
    return ((await response.json()) as { data: Array<{ status: string }> }).data.map((entry) => entry.status);
  };
  t.same(await eventually(search, (statuses) => statuses[0] === 'available' && statuses[1] === 'unavailable'), [
    'available',
    'unavailable',
  ]);

  const shown = await cliInProcess(['resources', 'show', 'github', 'account', 'OCTOCAT', '--data', data]);
  t.equal(shown.status, 0, shown.stderr);
  const minute = String.raw`\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC`;
  t.match(
    shown.stdout,
    new RegExp(
      [
        '^resource      github/account/octocat',
        'state         available',
        `next due      ${minute} \\(in (5|6) h\\) REFRESH_DUE`,
        'why           refresh: its datapoints reach the end of their freshness window',
        `last success  ${minute} \\((\\d+ (s|min) ago|now)\\)`,
        'failures      0 in a row',
        'datapoints    .*followers \\d+.*',
        'transitions, oldest first \\(2\\):',
        `  ${minute}  CREATED \\(new\\) -> pending`,
        `  ${minute}  COLLECTED pending -> available\n$`,
      ].join('\n'),
    ),
  );

  const failing = (await cliInProcess(['resources', 'show', 'github', 'account', 'broken', '--data', data])).stdout;
  t.match(failing, /^state {9}unavailable$/m);
  t.match(failing, /^why {11}retry after \d+ failed collection\(s\) in a row \(last: .+\)$/m);
  t.match(failing, /^ {2}\S+ \S+ UTC {2}FAILED pending -> unavailable$/m);

  const listed = (await cliInProcess(['resources', 'list', '--status', 'unavailable', '--data', data])).stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  t.same(listed[0], { total: 2, counts: { github: { available: 1, unavailable: 1 } } });
  t.equal(listed.length, 2, 'only the matching resource is listed');
  t.match(listed[1], { resource: 'github/account/broken', state: 'unavailable', failures: Number });
  const limited = (await cliInProcess(['resources', 'list', '--platform', 'github', '--limit', '1', '--data', data])).stdout
    .trim()
    .split('\n');
  t.equal(limited.length, 2, 'the counts line and one resource');
  t.same(
    JSON.parse((await cliInProcess(['resources', 'list', '--platform', 'x', '--data', data])).stdout),
    { total: 0, counts: {} },
    'no x resources',
  );

  const untracked = await cliInProcess(['resources', 'show', 'github', 'account', 'nobody-here', '--data', data]);
  t.equal(untracked.status, 2);
  t.equal(untracked.stderr, 'datapoints: resource github/account/nobody-here is not tracked\n');
  server.child.kill('SIGTERM');
  t.same(await server.exited, { code: 0, signal: null });
});
