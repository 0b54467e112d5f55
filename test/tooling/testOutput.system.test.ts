// What `npm test` prints and what CI reads from it (docs/testing.md#test-output): the terminal
// gets the failures and the totals, the raw TAP goes to a file, and .ci/summary turns that
// file and tap's exit status into the one line CI reads.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

async function exec(command: string, args: string[], env: NodeJS.ProcessEnv = process.env, cwd = root) {
  try {
    const { stdout } = await run(command, args, { cwd, env });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}

/**
 * A directory for an inner tap run, with the repository's .taprc, test/loader/ and
 * node_modules. Run in the repository, it would reset the .tap/ folder, and with it the
 * coverage, of the run around it; with another .taprc, its other plugin list would make tap
 * rebuild itself in the node_modules this run shares (docs/testing.md#how-tap-loads-typescript).
 */
function tapProject(dir: string): string {
  const project = join(dir, 'project');
  mkdirSync(join(project, 'test/loader'), { recursive: true });
  for (const file of ['register.mjs', 'hooks.mjs']) copyFileSync(join(root, 'test/loader', file), join(project, 'test/loader', file));
  for (const file of ['.taprc', 'package.json']) copyFileSync(join(root, file), join(project, file));
  symlinkSync(join(root, 'node_modules'), join(project, 'node_modules'));
  return project;
}

t.test('test output - failures and totals on the terminal, the raw TAP in the report file', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'datapoints-tap-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const report = join(dir, 'report.tap');
  const project = tapProject(dir);
  copyFileSync(join(root, 'test/tooling/fixtures/mixed.tap-fixture.ts'), join(project, 'mixed.tap-fixture.ts'));
  // The repository's .taprc chooses the reporter; only the report's place is moved here. The
  // run must look like one from a terminal, not a child of this tap run (nor a CI, where the
  // reporter's renderer prints nothing).
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(_?TAP|NODE_OPTIONS$|CI$)/.test(name)));
  const tap = await exec('npx', ['tap', '--disable-coverage', `--output-file=${report}`, 'mixed.tap-fixture.ts'], env, project);
  t.equal(tap.code, 1, 'tap fails the run');
  t.match(tap.stdout, /✖ fixture - fails > pigs fly/, 'the failing assertion is named');
  t.match(tap.stdout, /Asserts: {2}2 pass {2}1 fail {2}3 of 3 complete/, 'the totals');
  t.notMatch(tap.stdout, /ok 1 - should be equal/, 'no line per passing assertion');
  const raw = readFileSync(report, 'utf8');
  t.match(raw, /ok 1 - should be equal/, 'the report has every assertion');
  t.match(raw, /not ok 1 - pigs fly/);
  t.match(raw, /^# \{ total: 3, pass: 2, fail: 1 \}$/m);

  const summary = await exec('.ci/summary', [report, String(tap.code)]);
  t.equal(summary.stdout, '2 passed, 1 failed\n');
});

t.test('test output - a red run without a failing assertion still counts a failure', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'datapoints-tap-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const report = join(dir, 'report.tap');
  const absent = join(dir, 'absent.tap');
  writeFileSync(report, 'TAP version 14\n1..1\nok 1 - a.test.ts\n# { total: 4, pass: 4 }\n');
  t.equal((await exec('.ci/summary', [report, '0'])).stdout, '4 passed, 0 failed\n');
  t.equal(
    (await exec('.ci/summary', [report, '1'])).stdout,
    `the run reported in ${report} exited with status 1 (coverage below its threshold or a test file crashed)\n4 passed, 1 failed\n`,
  );
  t.equal(
    (await exec('.ci/summary', [absent, '1'])).stdout,
    `the run reported in ${absent} exited with status 1 (coverage below its threshold or a test file crashed)\n0 passed, 1 failed\n`,
  );
});

t.test('test output - the two tiers sum into one line', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'datapoints-tap-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const fast = join(dir, 'report.tap');
  const system = join(dir, 'system.tap');
  writeFileSync(fast, 'TAP version 14\n1..1\nok 1 - a.test.ts\n# { total: 4, pass: 4 }\n');
  writeFileSync(system, 'TAP version 14\n1..1\nnot ok 1 - b.system.test.ts\n# { total: 3, pass: 1, fail: 2 }\n');
  t.equal((await exec('.ci/summary', [fast, '0', system, '1'])).stdout, '5 passed, 2 failed\n');
  t.equal((await exec('.ci/summary', [fast, '0', system, '0'])).stdout, '5 passed, 2 failed\n');
});

t.test('test output - a file stopped at its time limit is named as timed out', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'datapoints-tap-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const report = join(dir, 'report.tap');
  const project = tapProject(dir);
  // The file blocks its event loop past the limit, so only SIGKILL ends it: the terminal names
  // just the signal (and the raw TAP says "no tests found"), .ci/timeouts names the file.
  copyFileSync(join(root, 'test/tooling/fixtures/blocks.tap-fixture.ts'), join(project, 'blocks.tap-fixture.ts'));
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(_?TAP|NODE_OPTIONS$|CI$)/.test(name)));
  const tap = await exec(
    'npx',
    [
      'tap',
      '--disable-coverage',
      '--timeout=3',
      '--reporter=silent',
      `--output-file=${report}`,
      'waits.tap-fixture.ts',
      'blocks.tap-fixture.ts',
    ],
    env,
    project,
  );
  t.equal(tap.code, 1, 'tap fails the run');
  t.equal((await exec('.ci/timeouts', [report])).stdout, 'blocks.tap-fixture.ts timed out (tap --timeout, docs/testing.md#time-limits)\n');
});
