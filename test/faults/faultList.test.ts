// The emulator's fault switch can be read back: GET /_emulator/faults lists the faults in force.
import t from 'tap';
import { startEmulator } from '../../src/emulator/server.js';

t.test('emulator faults - GET lists the faults in force, normalized, and forgets those switched off', async (t) => {
  const emulator = await startEmulator(0);
  t.teardown(() => emulator.close());
  const list = async () => {
    const response = await fetch(`${emulator.url}/_emulator/faults`);
    t.equal(response.status, 200);
    t.equal(response.headers.get('content-type'), 'application/json');
    return response.json();
  };
  const set = async (fault: object) => {
    const response = await fetch(`${emulator.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify(fault) });
    t.equal(response.status, 204);
  };
  t.same(await list(), { faults: [] });
  await set({ platform: 'github', identifier: 'OctoCat', mode: 'ratelimit' });
  await set({ platform: 'x', identifier: '*', mode: 'timeout' });
  t.same(await list(), {
    faults: [
      { platform: 'github', identifier: 'octocat', mode: 'ratelimit' },
      { platform: 'x', identifier: '*', mode: 'timeout' },
    ],
  });
  await set({ platform: 'github', identifier: 'octocat', mode: 'malformed' });
  await set({ platform: 'x', identifier: '*', mode: 'none' });
  t.same(await list(), { faults: [{ platform: 'github', identifier: 'octocat', mode: 'malformed' }] });
});
