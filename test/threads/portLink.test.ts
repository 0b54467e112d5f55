// The node's link lent to an edge over real MessageChannels and borrowed there (src/threads/portLink.ts):
// what the edge sees of the node's views, health and platform status, and what reaches the node
// of its demand, ledger calls, problems and metrics.
import { once } from 'node:events';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import t from 'tap';
import { Health } from '../../src/health.js';
import { healthCheck } from '../../src/http/readiness.js';
import type { EdgeCounts } from '../../src/metrics/edgeMetrics.js';
import { EdgeMetrics } from '../../src/metrics/edgeMetrics.js';
import { type PlatformStatusSnapshot, PostedPlatformStatus } from '../../src/operations/platformStatus.js';
import type { ResourceView } from '../../src/resources/view.js';
import { InProcessViewChanges } from '../../src/seams/viewChanges/viewChanges.js';
import { DatapointSeries } from '../../src/store/datapointSeries.js';
import { openDatabases } from '../../src/store/environment.js';
import { historyDefaults } from '../../src/config.js';
import type { NodeLink } from '../../src/threads/edgeLink.js';
import type { ToEdge } from '../../src/threads/edgeMessages.js';
import { borrowLink, lendLink, publishHealth } from '../../src/threads/portLink.js';
import { MemoryLedger } from '../access/memoryLedger.js';
import { tempDataDir } from '../helpers/service.js';
import { WebStore } from '../../src/seams/webRecords/webStore.js';
import { AccountStore } from '../../src/store/accountStore.js';
import { HasherBusy, isHasherBusy } from '../../src/web/passwordHasher.js';

const key = 'github/account/octocat';
const available: ResourceView = { entryEnd: ',"status":"available"}', refreshAfter: 9 };

t.test('port link - an edge sees the node through its borrowed link, and the node hears the edge', async (t) => {
  let clock = Date.UTC(2026, 10, 27, 12, 0, 0);
  const dbs = openDatabases(tempDataDir(t));
  const health = new Health(() => clock);
  const changes = new InProcessViewChanges();
  const wanted: Array<[readonly string[], number]> = [];
  let demandHeard: () => void = () => undefined;
  const demandArrives = new Promise<void>((resolve) => {
    demandHeard = resolve;
  });
  const ledger = new MemoryLedger();
  const added: EdgeCounts[] = [];
  let catchUps = 0;
  const link: NodeLink = {
    views: { view: () => undefined },
    changes,
    demand: {
      wanted: (keys, at) => {
        wanted.push([keys, at]);
        demandHeard();
      },
    },
    history: new DatapointSeries(dbs, historyDefaults),
    ledger,
    rateLedger: undefined,
    dashboard: { records: new WebStore(dbs), accounts: new AccountStore(dbs) },
    passwords: {
      derive: async ({ password }) => {
        if (password === 'full') throw new HasherBusy('full');
        return `key of ${password}`;
      },
    },
    accountsCatchUp: { catchUp: () => Promise.resolve(void catchUps++) },
    readiness: healthCheck(health),
    problems: health,
    health,
    platformStatus: new PostedPlatformStatus(),
    metrics: {
      requestAnswered: () => undefined,
      admissionRefused: () => undefined,
      addEdgeCounts: (counts) => void added.push(counts),
      edgeThreadReplaced: () => undefined,
    },
    lendLedger: true,
  };
  const lent = lendLink(link);
  const control = new MessageChannel();
  lent.attach(control.port1);
  const borrowed = borrowLink(lent.ports, dbs, control.port2);
  t.teardown(async () => {
    control.port1.close();
    for (const port of lent.transfer) port.close();
    await dbs.root.close();
  });
  // Each side's own listener was added first, so it has handled a message when this resolves.
  const heard = (port: MessagePort) => once(port, 'message');

  await heard(control.port2);
  t.same(borrowed.readiness(), [], 'the health as the edge joined: no problems');

  const told: string[] = [];
  borrowed.changes.listen((changed, view) => told.push(`${changed} ${view.entryEnd}`));
  changes.changed(key, available);
  await heard(lent.ports.views);
  t.same(borrowed.views.view(key), available, 'a committed view is served by the edge');
  t.same(told, [`${key} ${available.entryEnd}`], 'and heard by its push streams');

  borrowed.demand.wanted([key], 5);
  await demandArrives;
  t.same(wanted, [[[key], 5]], "the edge's demand reaches the node");

  t.same(await borrowed.ledger.read('acme', '2026-11'), { granted: 0, revision: 0 });
  const swap = await borrowed.ledger.swap('acme', '2026-11', 0, 256);
  t.equal(swap.swapped, true);
  t.same(ledger.writes, [['acme', '2026-11', 256]], "the edge's ledger calls are the node's ledger's");
  t.equal(borrowed.rateLedger, undefined, 'no rate ledger alone');
  await borrowed.accountsCatchUp!.catchUp();
  t.equal(catchUps, 1, "the edge's catch-up with the cluster's tokens is the node's");

  const hash = { salt: 'c2FsdA==', cost: 16, blockSize: 8, parallelization: 1, keyLength: 32 };
  t.equal(await borrowed.passwords.derive({ password: 'secret', ...hash }), 'key of secret', "the edge hashes on the node's hasher");
  const full = await borrowed.passwords.derive({ password: 'full', ...hash }).catch((error: unknown) => error);
  t.ok(isHasherBusy(full), 'and hears when it is full');

  clock += 1_000;
  health.report('due work', 'due work scan failed: boom');
  await heard(control.port2);
  t.same(borrowed.readiness(), [
    { component: 'due work', message: 'due work scan failed: boom', since: '2026-11-27T12:00:01.000Z', count: 1 },
  ]);

  const components = () => borrowed.readiness().map((problem) => problem.component);
  borrowed.problems.report('token bookkeeping', 'write failed');
  await heard(control.port1);
  t.same(
    health.problems().map((problem) => problem.component),
    ['due work', 'token bookkeeping'],
    "the edge's own problem is the node's",
  );
  await heard(control.port2);
  t.same(components(), ['due work', 'token bookkeeping'], 'and back on the edge with the rest');
  borrowed.problems.clear('token bookkeeping');
  await heard(control.port1);
  await heard(control.port2);
  t.same(components(), ['due work'], 'cleared on both');

  const snapshot: PlatformStatusSnapshot = { at: clock, queueWaiting: 0, platforms: [] };
  control.port1.postMessage({ type: 'platformStatus', snapshot } satisfies ToEdge);
  await heard(control.port2);
  t.same(borrowed.platformStatus.snapshot(), snapshot, 'the platform status as the node last posted it');

  const same = new EdgeMetrics();
  for (const metrics of [borrowed.metrics!, same]) {
    metrics.requestAnswered('/api/v1/resources/search', '200 OK', 0.002);
    metrics.admissionRefused('quota_exhausted');
  }
  borrowed.close();
  await heard(control.port1);
  t.same(added, [same.drain()], 'what the edge counted is added up on the node when it closes');
});

t.test('port link - an edge hears the node health when it joins and at each change, never for a clear of nothing', async (t) => {
  let clock = Date.UTC(2026, 10, 23, 12, 0, 0);
  const health = new Health(() => clock);
  health.report('due work', 'due work scan failed: boom');
  const heard: ToEdge[] = [];
  publishHealth(health, { postMessage: (message) => heard.push(message) });
  const since = '2026-11-23T12:00:00.000Z';
  t.same(heard, [{ type: 'health', problems: [{ component: 'due work', message: 'due work scan failed: boom', since, count: 1 }] }]);
  clock += 1_000;
  health.report('due work', 'due work scan failed: boom again');
  health.clear('collection');
  health.clear('collection outcomes');
  t.equal(heard.length, 2, 'clears of problems never reported post nothing');
  t.same(heard[1], {
    type: 'health',
    problems: [{ component: 'due work', message: 'due work scan failed: boom again', since, count: 2 }],
  });
  health.clear('due work');
  health.clear('due work');
  t.same(heard.slice(2), [{ type: 'health', problems: [] }], 'the clear that removed it is posted once');
  t.equal(health.healthy, true);
});
