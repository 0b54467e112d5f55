// Commits refused as a full disk refuses them (docs/storage.md#a-full-disk), through the test's
// stand-in for the disk (OpenOptions.writeFault): the store says why, refuses further commits at
// once, probes, and writes again once room is back; a server answers what it can count, refuses
// the rest with 503, says so in readiness, and collects again what it could not record. The same
// on a real full tmpfs, with a server process: test/store/fullDisk.system.test.ts.
import t from 'tap';
import type { SearchBody } from '../helpers/searchBody.js';
import { eventually, startTestService, tempDataDir } from '../helpers/service.js';
import { openDatabases } from '../../src/store/environment.js';
import { CommitRefused, type StorageState } from '../../src/store/storageSpace.js';
import { UsageStore } from '../../src/seams/quotaLedger/usageStore.js';
import type { RunningService } from '../../src/service.js';

/** A disk that refuses every write while `full` is set, as the kernel does: ENOSPC. */
function switchableDisk() {
  const disk = { full: false, refusals: 0 };
  const fault = () => {
    if (!disk.full) return undefined;
    disk.refusals++;
    return Object.assign(new Error('No space left on device'), { code: 'ENOSPC' });
  };
  return { disk, fault };
}

/** Collections of github that found their resource, over the last hour. */
const githubFound = (service: RunningService) =>
  (service.platformStatus.snapshot().platforms.find(({ platform }) => platform === 'github')?.perMinute ?? []).reduce(
    (sum, minute) => sum + minute.found,
    0,
  );

const refusedCount = { status: 503, body: { error: 'Requests cannot be counted right now; retry after 2 seconds' } };

t.test('storage space - a refused commit says why, the next ones are refused at once, and a probe finds room again', async (t) => {
  const { disk, fault } = switchableDisk();
  const dbs = openDatabases(tempDataDir(t), { writeFault: fault });
  t.teardown(() => dbs.root.close());
  const heard: StorageState[] = [];
  dbs.storage.onChanged((state) => heard.push(state));
  await dbs.meta.put('authVersion', 1);

  disk.full = true;
  await t.rejects(dbs.meta.put('authVersion', 2), new CommitRefused('no space left on its disk (ENOSPC)'));
  t.equal(dbs.meta.get('authVersion'), 1, 'nothing of it was written');
  t.match(heard, [{ writable: false, reason: 'no space left on its disk (ENOSPC)', since: Number }], 'heard once');
  const tried = disk.refusals;
  await t.rejects(
    dbs.root.transaction(() => dbs.meta.put('authVersion', 3)),
    new CommitRefused('no space left on its disk (ENOSPC)'),
    'a transaction is refused too',
  );
  t.ok(disk.refusals <= tried + 1, 'at once, not tried on the disk again (the probe may have tried once meanwhile)');

  disk.full = false;
  const state = await eventually(
    () => dbs.storage.current,
    ({ writable }) => writable,
    5_000,
  );
  t.same(state, { writable: true, since: undefined, reason: undefined }, 'the probe wrote: writable again');
  t.equal(heard.length, 2, 'and heard once more');
  t.type(dbs.meta.get('storageProbe'), 'number', "the probe's write");
  await dbs.meta.put('authVersion', 4);
  t.equal(dbs.meta.get('authVersion'), 4, 'commits go through again');
});

t.test(
  'storage space - a server answers what it can count, refuses the rest, says so, and collects again what it could not record',
  async (t) => {
    const { disk, fault } = switchableDisk();
    // A short lease: a collection whose outcome was refused is due again soon.
    const { service, url, dataDir, search, tokenFor } = await startTestService(t, { writeFault: fault, policy: { leaseMs: 500 } });
    const early = await tokenFor('early', { plan: 'paid' });
    const late = await tokenFor('late', { plan: 'paid' });
    const answered = { early: 0, late: 0 };
    const searchAs = async (account: keyof typeof answered, identifier = 'octocat') => {
      const result = await search(account === 'early' ? early : late, { resources: [{ platform: 'github', type: 'account', identifier }] });
      if (result.status === 200) answered[account]++;
      return result as { status: number; headers: Headers; body: SearchBody & { error?: string } };
    };
    await eventually(
      () => searchAs('early'),
      ({ body }) => body.data[0]!.status === 'available',
      { orFail: 'octocat collected' },
    );
    await Promise.all(Array.from({ length: 40 }, () => searchAs('early')));
    // Created while there is room; its collection answers after 3 s, when the disk is full.
    t.equal((await searchAs('early', 'slowpoke')).body.data[0]!.status, 'pending');

    disk.full = true;
    const refused = await searchAs('late');
    t.same({ status: refused.status, body: refused.body }, refusedCount, 'a count that cannot be written: 503');
    t.equal(refused.headers.get('retry-after'), '2');
    t.match(service.health.problems(), [
      { component: 'storage', message: /^the data store cannot be written since \S+: no space left on its disk \(ENOSPC\);/ },
    ]);
    const ready = await fetch(`${url}/readyz`);
    t.equal(ready.status, 503, 'not ready');
    for (const result of await Promise.all(Array.from({ length: 20 }, () => searchAs('early')))) {
      if (result.status === 200) t.equal(result.body.data[0]!.status, 'available', 'answered from what is stored');
      else t.same({ status: result.status, body: result.body }, refusedCount);
    }
    // The slow collection ends meanwhile; its outcome cannot be recorded.
    await eventually(
      () => githubFound(service),
      (found) => found >= 2,
      { timeoutMs: 10_000, orFail: 'the slow collection ended' },
    );

    disk.full = false;
    await eventually(
      () => fetch(`${url}/readyz`).then(({ status }) => status),
      (status) => status === 200,
      { orFail: 'ready again' },
    );
    // Not asked again: due again once its lease ended, collected again, and recorded this time.
    await eventually(
      () => githubFound(service),
      (found) => found >= 3,
      { timeoutMs: 10_000, orFail: 'the slow resource collected again' },
    );
    await eventually(
      () => searchAs('early', 'slowpoke'),
      ({ body }) => body.data[0]!.status === 'available',
      { orFail: 'slowpoke recorded' },
    );
    await eventually(
      () => searchAs('late'),
      ({ status }) => status === 200,
      { orFail: 'late answered again' },
    );

    await service.stop();
    // docs/storage.md#a-full-disk: after a clean stop, every answer counted and no refusal.
    const dbs = openDatabases(dataDir, { create: false });
    t.teardown(() => dbs.root.close());
    const usage = new UsageStore(dbs);
    const month = new Date().toISOString().slice(0, 7);
    for (const account of ['early', 'late'] as const)
      t.equal(usage.counted(account, month), answered[account], `${account}: counted exactly the searches answered`);
  },
);
