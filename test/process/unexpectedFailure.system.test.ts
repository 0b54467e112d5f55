// An error no pipeline handled ends the process with 1, but never unannounced: the log says so,
// and the server stops as on SIGTERM instead of aborting with its edge threads running
// (docs/architecture.md#when-background-work-fails). A real child process and a signal.
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { cliPath } from '../helpers/cli.js';
import { tempDataDir } from '../helpers/service.js';
import { serveArgs } from '../store/refusedServe.js';
import { watch } from './processes.js';

const fixture = fileURLToPath(new URL('./fixtures/unhandledRejection.mjs', import.meta.url));

t.test('unexpected failure - an unhandled rejection is logged as fatal, the server stops, and the process exits 1', async (t) => {
  const server = watch(t, process.execPath, ['--import', fixture, cliPath, ...serveArgs(tempDataDir(t))]);
  await server.waitFor(/^listening on /m);
  server.child.kill('SIGUSR2');
  t.same(await server.exited, { code: 1, signal: null });
  const fatal = server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
    .find((entry) => entry.level === 60);
  t.match(fatal, {
    msg: 'unexpected failure: nothing handled this error; the server stops',
    err: { message: 'nobody caught this' },
  });
});
