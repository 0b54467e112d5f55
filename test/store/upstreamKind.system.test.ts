// Emulator counts are never served as real (docs/storage.md#where-the-counts-came-from).
import t, { type Test } from 'tap';
import { DataDirectoryError } from '../../src/store/dataDirectoryError.js';
import { openDatabases, type Databases, type UpstreamKind } from '../../src/store/environment.js';
import { ResourceStore } from '../../src/store/resourceStore.js';
import { adoptUpstreamKind, upstreamKindOf } from '../../src/store/upstreamKind.js';
import { startServer } from '../helpers/cli.js';
import { tempDataDir } from '../helpers/service.js';
import { serveRefused } from './refusedServe.js';
import { availableResource, commitResource } from './resourceFixtures.js';

const fromEmulator = (dataDir: string) =>
  `data directory ${dataDir} holds counts from the emulator, never to be served as real: serve real data from another --data directory`;
const fromReal = (dataDir: string) =>
  `data directory ${dataDir} holds counts from the real platforms: run against the emulator with another --data directory`;

function openOn(t: Test, dataDir: string): Databases {
  const dbs = openDatabases(dataDir);
  t.teardown(() => dbs.root.close());
  return dbs;
}

/** A directory holding one resource collected from `kind`. */
async function directoryFrom(t: Test, kind: UpstreamKind): Promise<string> {
  const dataDir = tempDataDir(t);
  const dbs = openDatabases(dataDir);
  await adoptUpstreamKind(dbs, kind);
  t.equal(await commitResource(new ResourceStore(dbs), { key: 'github/account/octocat', next: availableResource(1) }), true);
  await dbs.root.close();
  return dataDir;
}

t.test('upstream kind - real only for --upstream real; the emulator, in process or at a URL, is the emulator', async (t) => {
  t.equal(upstreamKindOf('real'), 'real');
  t.equal(upstreamKindOf('emulator'), 'emulator');
  t.equal(upstreamKindOf('http://127.0.0.1:8081'), 'emulator');
});

t.test('upstream kind - a directory without resources takes either kind', async (t) => {
  const dbs = openOn(t, tempDataDir(t));
  await adoptUpstreamKind(dbs, 'emulator');
  t.equal(dbs.meta.get('upstream'), 'emulator');
  await adoptUpstreamKind(dbs, 'real');
  t.equal(dbs.meta.get('upstream'), 'real', 'nothing was collected yet: the new kind is recorded');
});

t.test('upstream kind - a directory holding resources refuses the other kind and keeps its own', async (t) => {
  const emulated = await directoryFrom(t, 'emulator');
  const dbs = openOn(t, emulated);
  await t.rejects(adoptUpstreamKind(dbs, 'real'), new DataDirectoryError(fromEmulator(emulated)));
  await adoptUpstreamKind(dbs, 'emulator');
  t.equal(dbs.meta.get('upstream'), 'emulator', 'the same kind goes on');

  const real = await directoryFrom(t, 'real');
  await t.rejects(adoptUpstreamKind(openOn(t, real), 'emulator'), new DataDirectoryError(fromReal(real)));
});

t.test('upstream kind - serve refuses a directory of the other kind in one line, and records its own', async (t) => {
  const emulated = await directoryFrom(t, 'emulator');
  t.same(
    serveRefused(emulated, 'real'),
    { status: 1, stdout: '', stderr: `datapoints: ${fromEmulator(emulated)}\n` },
    'real on emulator counts',
  );
  t.equal(openOn(t, emulated).meta.get('serverClaim'), undefined, 'the refused server gave its claim back');
  const real = await directoryFrom(t, 'real');
  t.same(
    serveRefused(real, 'http://127.0.0.1:9'),
    { status: 1, stdout: '', stderr: `datapoints: ${fromReal(real)}\n` },
    'an emulator URL on real counts',
  );

  const fresh = tempDataDir(t);
  const server = await startServer(t, ['--data', fresh, '--upstream', 'emulator']);
  t.equal((await server.stop()).code, 0);
  const dbs = openOn(t, fresh);
  t.equal(dbs.meta.get('upstream'), 'emulator', 'a server records its upstream kind');
});
