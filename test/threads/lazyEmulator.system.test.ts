// A production server runs no emulator code (docs/operations-endpoints.md#the-emulator-stays-out): with `--upstream real` no module of src/emulator/ is loaded by any thread; with
// `--upstream emulator` the emulator is loaded, which shows the check sees loads at all.
import t from 'tap';
import { tempDataDir } from '../helpers/service.js';
import { fixture, serve } from './serverProcess.js';

const recordLoads = ['--import', fixture('recordEmulatorLoads.mjs')];

t.test('lazy emulator - a server with --upstream real loads no emulator module', async (t) => {
  const server = await serve(t, ['--data', tempDataDir(t), '--upstream', 'real', '--threads', '2'], recordLoads);
  t.equal((await fetch(`${server.url}/healthz`)).status, 200, 'the server answers');
  t.equal(await server.stop(), 0);
  t.equal(server.stderr().match(/emulator module loaded: .*/g), null);
});

t.test('lazy emulator - with --upstream emulator its server module is loaded', async (t) => {
  const server = await serve(t, ['--data', tempDataDir(t), '--upstream', 'emulator', '--threads', '1'], recordLoads);
  t.equal(await server.stop(), 0);
  t.match(server.stderr(), /emulator module loaded: file:\/\/\S+\/dist\/src\/emulator\/server\.js/);
});
