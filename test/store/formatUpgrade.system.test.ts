// The in-place upgrade of a format-1 data directory (docs/storage.md#upgrading-a-data-directory).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { open } from 'lmdb';
import t from 'tap';
import { openDatabases } from '../../src/store/environment.js';
import { currentFormat } from '../../src/store/formatVersion.js';
import { ResourceStore } from '../../src/store/resourceStore.js';
import { entryCount } from '../../src/store/entryCount.js';
import { startTestService, tempDataDir } from '../helpers/service.js';
import { formatOneAccount, formatOneResources, formatOneToken, writeFormatOne } from './formatOneDirectory.js';
import { availableResource, commitResource } from './resourceFixtures.js';

t.test('upgrade - a format-1 directory opens as the current format with every resource, account, token and usage count', async (t) => {
  const dataDir = tempDataDir(t);
  const resources = formatOneResources(2_500);
  await writeFormatOne(dataDir, resources);

  const dbs = openDatabases(dataDir);
  t.teardown(() => dbs.root.close());
  t.equal(dbs.meta.get('formatVersion'), currentFormat);
  const store = new ResourceStore(dbs);
  t.equal(store.count(), resources.size);
  let intact = 0;
  for (const [key, resource] of resources) {
    const entry = store.snapshotEntry(key);
    if (entry?.version === 1 && JSON.stringify(entry.resource) === JSON.stringify(resource)) intact++;
  }
  t.equal(intact, resources.size, 'every snapshot reads back as written, at version 1');
  t.equal(entryCount(dbs.due), resources.size, 'every due entry is kept');
  t.same(dbs.accounts.get('acme'), formatOneAccount);
  t.same(dbs.tokens.get('tok_1'), formatOneToken);
  t.equal(dbs.tokenDigests.get(formatOneToken.digest), 'tok_1');
  t.equal(dbs.usage.get(['acme', '2026-10']), 812);
  t.equal(dbs.usage.get(['acme', '2026-11']), 37);
  t.equal(dbs.meta.get('authVersion'), 3);

  const key = 'github/account/user7';
  const next = availableResource(7_007);
  t.equal(
    await commitResource(store, { key, base: { version: 0, resource: resources.get(key)! }, next }),
    false,
    'a commit naming another version loses',
  );
  t.equal(
    await commitResource(store, { key, base: { version: 1, resource: resources.get(key)! }, next }),
    true,
    'a commit naming the upgraded version wins',
  );
  t.same(store.snapshotEntry(key), { resource: next, version: 2 });
});

t.test('upgrade - a fresh process reads the upgraded directory, and opening it again changes nothing', async (t) => {
  const dataDir = tempDataDir(t);
  const resources = formatOneResources(30);
  await writeFormatOne(dataDir, resources);
  await openDatabases(dataDir).root.close();
  const again = openDatabases(dataDir, { create: false });
  t.teardown(() => again.root.close());
  const store = new ResourceStore(again);
  t.same(store.snapshotEntry('github/account/user3'), { resource: resources.get('github/account/user3'), version: 1 });
  t.equal(again.meta.get('formatVersion'), currentFormat);
});

const killedChild = fileURLToPath(new URL('./upgradeKilledChild.ts', import.meta.url));
t.test('upgrade - killed with -9 just before its commit, it leaves format 1, and the next open upgrades it', async (t) => {
  const dataDir = tempDataDir(t);
  const resources = formatOneResources(2_500);
  await writeFormatOne(dataDir, resources);

  // This file's own node flags load TypeScript (test/loader/), so the child runs from source too.
  const child = spawn(process.execPath, [...process.execArgv, killedChild, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const [copied] = await once(child.stdout, 'data');
  t.equal(String(copied), 'copied\n', 'every snapshot rewritten, format 2 being recorded');
  child.kill('SIGKILL');
  t.same(await once(child, 'exit'), [null, 'SIGKILL']);

  const raw = open({ path: join(dataDir, 'datapoints.mdb'), maxDbs: 16, cache: false });
  const unversioned = raw.openDB({ name: 'resources', sharedStructuresKey: Symbol.for('structures') });
  t.equal(raw.openDB({ name: 'meta' }).get('formatVersion'), undefined, 'no format recorded');
  t.same(unversioned.get('github/account/user7'), resources.get('github/account/user7'), 'snapshots as format 1 wrote them');
  await raw.close();

  const dbs = openDatabases(dataDir);
  t.teardown(() => dbs.root.close());
  t.equal(dbs.meta.get('formatVersion'), currentFormat);
  const store = new ResourceStore(dbs);
  let intact = 0;
  for (const [key, resource] of resources) {
    const entry = store.snapshotEntry(key);
    if (entry?.version === 1 && JSON.stringify(entry.resource) === JSON.stringify(resource)) intact++;
  }
  t.equal(intact, resources.size, 'every snapshot reads back as written, at version 1');
  t.same(dbs.accounts.get('acme'), formatOneAccount);
  t.equal(dbs.usage.get(['acme', '2026-11']), 37);
});

t.test('upgrade - a server started on a format-1 directory serves its resources to its accounts', async (t) => {
  const dataDir = tempDataDir(t);
  // Collected a minute ago, so not due again while the test runs: the answer is the snapshot
  // the directory holds, not a new collection the server might finish first.
  const since = Date.now() - 60_000;
  const collectedAt = new Date(since + 7).toISOString();
  const resources = formatOneResources(30, since);
  await writeFormatOne(dataDir, resources);
  const { search, tokenFor, service } = await startTestService(t, { dataDir });
  t.same(service.accounts.account('acme'), formatOneAccount, 'the account is there');
  const answer = await search(await tokenFor('acme'), { resources: [{ platform: 'github', type: 'account', identifier: 'user7' }] });
  t.equal(answer.status, 200);
  t.same(
    answer.body.data[0],
    {
      platform: 'github',
      type: 'account',
      identifier: 'user7',
      status: 'available',
      metrics: { followers: { value: 7, status: 'available', collected_at: collectedAt, semantic: 'followers' } },
      attributes: { likes: { value: 21, status: 'available', collected_at: collectedAt, semantic: 'likes' } },
    },
    'the snapshot collected before the upgrade is served',
  );
});
