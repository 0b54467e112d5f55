// An error no pipeline handled ends the process as Node would (exit 1), but never unannounced:
// the log says so first (docs/architecture.md, "When background work fails"). A real child process.
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { cliPath } from '../helpers/cli.js';
import { tempDataDir } from '../helpers/service.js';
import { watch } from './processes.js';

const fixture = fileURLToPath(new URL('./fixtures/unhandledRejection.mjs', import.meta.url));

t.test('unexpected failure - an unhandled rejection is logged as fatal, the server stops, and the process exits 1', async (t) => {
  const server = watch(t, process.execPath, [
    '--import',
    fixture,
    cliPath,
    'serve',
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--data',
    tempDataDir(t),
    '--upstream',
    'emulator',
  ]);
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
