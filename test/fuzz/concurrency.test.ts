// Admission and collection under concurrency: a quota admits exactly its size however many
// requests race for it, and one new resource searched by many at once is collected once.
import t from 'tap';
import { Pool } from 'undici';
import { openDatabases } from '../../src/store/environment.js';
import { ResourceStore } from '../../src/store/resourceStore.js';
import { UsageStore } from '../../src/seams/quotaLedger/usageStore.js';
import { monthOf } from '../../src/access/calendar.js';
import { eventually, searchPath, startTestService } from '../helpers/service.js';
import { recordingUpstream } from '../security/recordingUpstream.js';

const octocat = { platform: 'github', type: 'account', identifier: 'octocat' };

async function concurrently(url: string, count: number, headers: Record<string, string>, body: string) {
  const pool = new Pool(url, { connections: count });
  try {
    return await Promise.all(
      Array.from({ length: count }, async () => {
        const response = await pool.request({ path: searchPath, method: 'POST', headers, body });
        return { status: response.statusCode, body: await response.body.text() };
      }),
    );
  } finally {
    await pool.close();
  }
}

t.test('concurrency - 1,000 concurrent requests on a quota of 100 admit exactly 100, and 100 are counted', async (t) => {
  const ts = await startTestService(t);
  const token = await ts.tokenFor('racer', { quota: 100, rate: { limit: 1_000_000, windowMs: 60_000 } });
  const answers = await concurrently(
    ts.url,
    1_000,
    { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    JSON.stringify({ resources: [octocat] }),
  );
  const count = (status: number) => answers.filter((answer) => answer.status === status).length;
  t.equal(count(200), 100, 'exactly the quota is admitted');
  t.equal(count(403), 900, 'every other request is refused with 403');
  t.match(
    answers.find((answer) => answer.status === 403)!.body,
    /^\{"error":"Monthly quota of 100 requests exhausted; it resets on \d{4}-\d{2}-01"\}$/,
  );
  // Stopped first: a second LMDB handle opened while the server's writes are in flight can
  // hang, and the count must be exact after the stop gives back unspent reservations.
  await ts.service.stop();
  const dbs = openDatabases(ts.dataDir);
  t.teardown(() => dbs.root.close());
  t.equal(new UsageStore(dbs).used('racer', monthOf(Date.now())), 100, 'the durable usage count is exactly 100');
});

t.test('concurrency - concurrent first searches of one new resource start exactly one collection', async (t) => {
  const upstream = await recordingUpstream(t);
  const ts = await startTestService(t, { upstream: upstream.url });
  const token = await ts.tokenFor('crowd', { plan: 'paid' });
  const answers = await concurrently(
    ts.url,
    200,
    { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    JSON.stringify({ resources: [octocat] }),
  );
  t.same([...new Set(answers.map((answer) => answer.status))], [200]);
  const settled = await eventually(
    () => ts.search(token, { resources: [octocat] }),
    (answer) => answer.body.data[0].status === 'available',
  );
  t.equal(settled.body.data[0].status, 'available');
  // Every collection the searches asked for is over once nothing waits in the queue and the
  // platform has nothing in hand: a second one would have been counted by then.
  const quiet = await eventually(
    async () => {
      const { queueWaiting, platforms } = ts.service.platformStatus.snapshot();
      const github = platforms.find((status) => status.platform === 'github')!;
      return { queueWaiting, collecting: github.collecting, inFlight: github.budget.inFlight };
    },
    (status) => status.queueWaiting === 0 && status.collecting === 0 && status.inFlight === 0,
  );
  t.same(quiet, { queueWaiting: 0, collecting: 0, inFlight: 0 }, 'no collection is waiting or under way');
  t.same(upstream.targets, ['/github/users/octocat'], 'one upstream call for 200 concurrent first searches');
  const dbs = openDatabases(ts.dataDir);
  t.teardown(() => dbs.root.close());
  const history = new ResourceStore(dbs).snapshot('github/account/octocat')!.context.history;
  t.same(
    history.map((entry) => entry.event),
    ['COLLECTED'],
    'one collection in the resource history',
  );
});
