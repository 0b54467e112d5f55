// A full disk under a running server, on a real small tmpfs (docs/storage.md#a-full-disk):
// searches of stored resources are answered, a search whose count cannot be written gets 503
// with Retry-After and is not counted, /readyz and the log (once) say so, a command gets one line
// and exit 1, and once room is freed the server writes again without a restart.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { request } from 'undici';
import { cli, lastLine, startServer } from '../helpers/cli.js';
import { eventually } from '../helpers/eventually.js';
import type { SearchBody } from '../helpers/searchBody.js';
import { tempDataDir } from '../helpers/service.js';

/** A tmpfs of `kib` KiB at a new directory, unmounted when the test ends. */
function smallDisk(t: Test, kib: number): string {
  const mountPoint = tempDataDir(t);
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k`, 'tmpfs', mountPoint]);
  t.teardown(() => execFileSync('umount', ['-l', mountPoint]));
  return mountPoint;
}

/** Fills the disk of `dir` to the last byte with one file; returns its path. */
function fill(dir: string): string {
  const path = join(dir, 'filler');
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(4096);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return path;
}

const octocat = { platform: 'github', type: 'account', identifier: 'octocat' };

/**
 * Each on a connection of its own (`reset`): the commands run between searches take longer than
 * the server keeps an idle connection, and a reused one it just closed fails the request.
 */
async function search(url: string, token: string) {
  const answer = await request(`${url}/api/v1/resources/search`, {
    method: 'POST',
    reset: true,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ resources: [octocat] }),
  });
  return {
    status: answer.statusCode,
    retryAfter: answer.headers['retry-after'],
    body: (await answer.body.json()) as SearchBody & { error?: string },
  };
}

const readiness = async (url: string) => {
  const answer = await request(`${url}/readyz`, { reset: true });
  return { status: answer.statusCode, body: (await answer.body.json()) as { problems: Array<{ component: string; message: string }> } };
};

const fullMessage =
  /the data store cannot be written since \S+: (no space left on its disk \(ENOSPC\)|a write was cut short \(EIO\), as on a full disk); searches are answered while their counts can be, writes are refused until room is freed/;

t.test('full disk - the server answers what it stored, refuses what it cannot count, says so once, and recovers', async (t) => {
  const disk = smallDisk(t, 2048);
  const data = join(disk, 'data');
  mkdirSync(data);
  const token = (account: string) => {
    t.equal(cli(['accounts', 'create', account, '--plan', 'paid', '--data', data]).status, 0);
    return lastLine(cli(['tokens', 'create', account, '--data', data]).stdout);
  };
  // `early` searches before the disk fills, so it may hold reserved units then; `late` does not.
  const early = token('early');
  const late = token('late');
  const server = await startServer(t, ['--data', data, '--upstream', 'emulator', '--threads', '1']);
  t.teardown(() => {
    if (t.counts.fail > 0) t.comment(server.output());
  });
  const answered = { early: 0, late: 0 };
  const searchAs = async (account: keyof typeof answered) => {
    const result = await search(server.url, account === 'early' ? early : late);
    if (result.status === 200) answered[account]++;
    return result;
  };
  const available = await eventually(
    () => searchAs('early'),
    ({ body }) => body.data?.[0]?.status === 'available',
    10_000,
  );
  t.equal(available.body.data[0]!.status, 'available', 'collected while there was room');
  // A burst, so that its quota block is more than one unit.
  await Promise.all(Array.from({ length: 40 }, () => searchAs('early')));

  const filler = fill(disk);
  // LMDB reuses the pages its file already frees: commands write until none is left, and the first
  // refused one says so in one line.
  let created = cli(['accounts', 'create', 'pad-0', '--data', data]);
  for (let index = 1; created.status === 0 && index < 200; index++) created = cli(['accounts', 'create', `pad-${index}`, '--data', data]);
  t.equal(created.status, 1, 'a command that writes exits 1');
  // LMDB reports ENOSPC, or EIO when the file system took part of a write (mdb.c, mdb_page_flush).
  t.match(
    lastLine(created.stderr),
    new RegExp(
      `^datapoints: cannot write the data store in '${data}': (no space left on its disk \\(ENOSPC\\)|a write was cut short \\(EIO\\), as on a full disk); nothing was changed: free space there and run the command again$`,
    ),
  );
  t.notMatch(created.stderr, /\n\s+at /, 'no stack');
  const refused = await searchAs('late');
  t.same(
    { status: refused.status, retryAfter: refused.retryAfter, body: refused.body },
    { status: 503, retryAfter: '2', body: { error: 'Requests cannot be counted right now; retry after 2 seconds' } },
    'a search whose count cannot be written is refused',
  );
  // The edge thread that was refused tells the server's health, which every edge answers from: a message each way.
  const unready = await eventually(
    () => readiness(server.url),
    ({ status }) => status === 503,
    { orFail: 'not ready' },
  );
  t.match(unready.body.problems, [{ component: 'storage', message: fullMessage }]);
  // Answered from what is stored while the units reserved before last, then refused.
  for (const result of await Promise.all(Array.from({ length: 30 }, () => searchAs('early')))) {
    if (result.status === 200) t.equal(result.body.data[0]!.status, 'available');
    else
      t.same(
        { status: result.status, body: result.body },
        { status: 503, body: { error: 'Requests cannot be counted right now; retry after 2 seconds' } },
      );
  }
  t.equal((await searchAs('late')).status, 503, 'and refused again');

  rmSync(filler);
  const ready = await eventually(
    () => readiness(server.url),
    ({ status }) => status === 200,
    10_000,
  );
  t.same(ready, { status: 200, body: { ready: true, problems: [] } }, 'ready again once room is freed, without a restart');
  const counted = await eventually(
    () => searchAs('late'),
    ({ status }) => status === 200,
    10_000,
  );
  t.equal(counted.status, 200, 'the late account is answered again');
  t.equal(server.output().match(new RegExp(fullMessage.source, 'g'))?.length, 1, 'the log said it once');
  t.equal(server.child.exitCode, null, 'the server ran throughout');

  t.equal((await server.stop()).code, 0, 'and stops cleanly');
  // docs/storage.md#a-full-disk: after a clean stop the counts are exact: every answer counted, no refusal.
  for (const account of ['early', 'late'] as const) {
    const shown = JSON.parse(cli(['accounts', 'show', account, '--data', data]).stdout) as { usage: { used: number } };
    t.equal(shown.usage.used, answered[account], `${account}: counted exactly the searches answered`);
  }
});
