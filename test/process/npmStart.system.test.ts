// `npm start` stops as `datapoints serve` stops (docs/operations.md#signals): npm runs the
// script through `sh -c`; the server must neither be orphaned by a signal to npm nor outlive npm.
// npx, which runs the server through a shell too, is test/process/npxServe.system.test.ts.
import t from 'tap';
import { tempDataDir } from '../helpers/service.js';
import { alive, npmStart, within } from './npmProcesses.js';
import { portIsFree } from './processes.js';

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  t.test(`npm start - ${signal} to npm stops the server and frees the port within 5 s`, async (t) => {
    const data = tempDataDir(t);
    const { npm, pid, port } = await npmStart(t, data);
    t.equal(await portIsFree(port), false, 'the server holds its port');
    npm.child.kill(signal);
    t.ok(await within(5_000, () => !alive(pid)), 'the server process is gone');
    t.ok(await within(5_000, () => portIsFree(port)), 'the port is free');
    await npm.exited;
  });
}

t.test('npm start - a server whose npm is killed outright stops too', async (t) => {
  const data = tempDataDir(t);
  const { npm, pid, port } = await npmStart(t, data);
  npm.child.kill('SIGKILL');
  t.ok(await within(5_000, () => !alive(pid)), 'the server noticed npm went away and stopped');
  t.ok(await within(5_000, () => portIsFree(port)), 'the port is free');
});
