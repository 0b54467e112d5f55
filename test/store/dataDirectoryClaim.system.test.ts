// One server per data directory (docs/storage.md#one-server-per-data-directory): the claim
// in one process, then real `datapoints serve` processes on one directory, killed with -9.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import t, { type Test } from 'tap';
import { claimDataDirectory } from '../../src/store/dataDirectoryClaim.js';
import { DataDirectoryError } from '../../src/store/dataDirectoryError.js';
import { openDatabases, type Databases } from '../../src/store/environment.js';
import { cliInProcess, cliPath, startServer } from '../helpers/cli.js';
import { tempDataDir } from '../helpers/service.js';
import { serveArgs, serveRefused } from './refusedServe.js';

function openOn(t: Test, dataDir: string): Databases {
  const dbs = openDatabases(dataDir);
  t.teardown(() => dbs.root.close());
  return dbs;
}

/** The pid of a process that has come and gone. */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  return pid;
}

t.test('data directory claim - a live holder refuses every other claim until it releases', async (t) => {
  const dataDir = tempDataDir(t);
  const dbs = openOn(t, dataDir);
  const claim = await claimDataDirectory(dbs);
  const refused = claimDataDirectory(openOn(t, dataDir));
  await t.rejects(refused, new DataDirectoryError(`data directory ${dataDir} is in use by pid ${process.pid}`));
  await t.rejects(refused, DataDirectoryError);
  await claim.release();
  t.equal(dbs.meta.get('serverClaim'), undefined, 'a release removes the claim');
  const again = await claimDataDirectory(openOn(t, dataDir));
  t.same(dbs.meta.get('serverClaim')?.pid, process.pid, 'the directory can be claimed again');
  await again.release();
});

t.test('data directory claim - the claim of a process that is gone, of a reused pid or of another directory holds nothing', async (t) => {
  const dataDir = tempDataDir(t);
  const dbs = openOn(t, dataDir);
  const { dev, ino } = statSync(dataDir);
  const directory = `${dev}:${ino}`;
  const gone = deadPid();
  await dbs.meta.put('serverClaim', { pid: gone, started: '1', directory });
  const overGone = await claimDataDirectory(dbs);
  t.equal(dbs.meta.get('serverClaim')?.pid, process.pid, 'the claim of a dead pid is taken over');
  await overGone.release();

  // This very pid, but started at another time: an earlier process whose pid was reused.
  await dbs.meta.put('serverClaim', { pid: process.pid, started: 'another start', directory });
  const overReused = await claimDataDirectory(dbs);
  t.not(dbs.meta.get('serverClaim')?.started, 'another start', 'a reused pid holds nothing');
  const live = dbs.meta.get('serverClaim')!;
  await overReused.release();

  // The claim of this live process, as a copy of its data (a backup) carries it elsewhere.
  const copied = { ...live, directory: 'another device:another inode' };
  await dbs.meta.put('serverClaim', copied);
  const overCopied = await claimDataDirectory(dbs);
  t.same(dbs.meta.get('serverClaim'), live, 'a claim on another directory holds nothing here');
  await overCopied.release();
});

// The serve processes below take turns on one directory: the winner of the race is the holder
// the next test refuses a second serve for, and is then killed -9 for the last.
const raced = tempDataDir(t);
let holder: RaceOutcome | undefined;

t.test('one server per data directory - of two servers started at once, exactly one runs', async (t) => {
  const outcomes = await Promise.all([0, 1].map(() => raceToServe(raced)));
  const running = outcomes.filter((outcome) => outcome.kind === 'listening');
  const refused = outcomes.filter((outcome) => outcome.kind === 'exited');
  t.equal(running.length, 1, 'one listens');
  t.same(
    refused.map(({ code, output }) => ({ code, output })),
    [{ code: 1, output: `datapoints: data directory ${raced} is in use by pid ${running[0]?.pid}\n` }],
    'the other is refused, naming the one that runs',
  );
  holder = running[0];
});

t.test('one server per data directory - a second serve is refused with one line naming the holder', async (t) => {
  const first = holder!;
  t.same(serveRefused(raced), {
    status: 1,
    stdout: '',
    stderr: `datapoints: data directory ${raced} is in use by pid ${first.pid}\n`,
  });

  // The operator's commands do not claim the directory: they work while the server runs.
  t.equal((await cliInProcess(['accounts', 'create', 'acme', '--data', raced])).status, 0, 'accounts create works beside the server');
  t.equal((await cliInProcess(['tokens', 'create', 'acme', '--data', raced])).status, 0, 'tokens create works beside the server');
  t.equal((await cliInProcess(['accounts', 'show', 'acme', '--data', raced])).status, 0, 'accounts show works beside the server');

  const answer = await fetch(`${/listening on (http:\/\/\S+)/.exec(first.output)![1]}/api/v1/resources/search`, { method: 'POST' });
  t.equal(answer.status, 401, 'the first server still answers');
});

t.test('one server per data directory - a holder killed with -9 does not block the next start', async (t) => {
  holder!.child.kill('SIGKILL');
  t.same(await holder!.exited, { code: null, signal: 'SIGKILL' });
  const second = await startServer(t, ['--data', raced, '--upstream', 'emulator']);
  t.same(
    serveRefused(raced).stderr,
    `datapoints: data directory ${raced} is in use by pid ${second.child.pid}\n`,
    'the new server holds it',
  );
  t.equal((await second.stop()).code, 0);
  const dbs = openOn(t, raced);
  t.equal(dbs.meta.get('serverClaim'), undefined, 'a clean stop gives the directory up');
});

interface RaceOutcome {
  kind: 'listening' | 'exited';
  pid: number | undefined;
  code: number | null;
  output: string;
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function raceToServe(dataDir: string): Promise<RaceOutcome> {
  const child = spawn(process.execPath, [cliPath, ...serveArgs(dataDir)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'warn' },
  });
  // The winner outlives the test that started it: the root test ends it.
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('listening on')) resolve({ kind: 'listening', pid: child.pid, code: null, output: stdout, child, exited });
    });
    child.on('exit', (code) => resolve({ kind: 'exited', pid: child.pid, code, output: stdout + stderr, child, exited }));
  });
}
