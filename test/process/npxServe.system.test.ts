// `npx datapoints serve` stops as `datapoints serve` stops (docs/operations.md#signals); a file
// of its own beside test/process/npmStart.system.test.ts, as npm's starts are slow on a busy machine.
import t from 'tap';
import { tempDataDir } from '../helpers/service.js';
import { alive, npmStart, serveArgs, within } from './npmProcesses.js';
import { portIsFree } from './processes.js';

t.test('npx datapoints serve - SIGTERM to npx stops the server, which npx runs through a shell', async (t) => {
  const data = tempDataDir(t);
  const { npm, pid, port } = await npmStart(t, data, ['exec', '--', 'datapoints', 'serve', ...serveArgs(data)]);
  npm.child.kill('SIGTERM');
  // The server learns of it by the parent watch; its output says where a slow stop spent its time.
  t.ok(await within(5_000, () => !alive(pid)), 'the server process is gone', { output: npm.stdout() + npm.stderr() });
  t.ok(await within(5_000, () => portIsFree(port)), 'the port is free');
});
