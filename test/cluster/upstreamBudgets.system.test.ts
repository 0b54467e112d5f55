// Two collecting nodes on one nats-server, each with its own connection, budget and pauses, and
// its own collection pipeline calling the emulator's GitHub (docs/design/cluster.md#upstream-budgets-cluster-wide): together they stay within the platform's calls per window, and a rate-limit
// answer one of them gets stops the other's calls to the platform until the pause ends.
import { asyncScheduler, Subject, type Subscription } from 'rxjs';
import t, { type Test } from 'tap';
import type { CallBudget, Collector } from '../../src/model.js';
import { collectResources } from '../../streams/collection.js';
import { ClusterCallBudget } from '../../src/seams/callBudget/clusterCallBudget.js';
import { closeNats, connectNats } from '../../src/cluster/natsConnection.js';
import { NatsPlatformPauses } from '../../src/seams/platformPauses/natsPlatformPauses.js';
import { collectionDefaults } from '../../src/config.js';
import { startEmulator } from '../../src/emulator/server.js';
import { Health } from '../../src/health.js';
import { silentLogger } from '../../src/log.js';
import { resourceKey } from '../../src/model.js';
import { createCollectors } from '../../src/platforms/collectors.js';
import { createUpstreamHttp } from '../../src/platforms/http.js';
import { startNatsServer } from '../helpers/natsServer.js';
import { eventually } from '../helpers/eventually.js';

/** Short windows, so that a test sees several. */
const windowMs = 2_000;

/** What happened, in the order it happened, across both nodes. */
type Event = { node: string; what: 'call' | 'answered' | 'heard pause'; at: number; until?: number };

interface Node {
  demand: Subject<string>;
  pauses: NatsPlatformPauses;
}

async function startNode(t: Test, url: string, name: string, emulatorUrl: string, budget: CallBudget, events: Event[]): Promise<Node> {
  const connection = await connectNats({ servers: [url], name });
  const pauses = await NatsPlatformPauses.open(connection, { requestTimeoutMs: 1_000, now: Date.now, log: silentLogger });
  const callBudget = await ClusterCallBudget.open(
    connection,
    { requestTimeoutMs: 1_000, keptMs: 60_000 },
    { windowMs, blocksPerWindow: 8, retryMs: 200, now: Date.now, health: new Health(), log: silentLogger },
  );
  const http = createUpstreamHttp();
  const github = createCollectors(emulatorUrl, {}, http, Date.now).get('github')!.collector;
  const counted: Collector = {
    maxBatch: github.maxBatch,
    async collect(refs, signal) {
      events.push({ node: name, what: 'call', at: Date.now() });
      const outcomes = await github.collect(refs, signal);
      events.push({ node: name, what: 'answered', at: Date.now() });
      return outcomes;
    },
  };
  const demand = new Subject<string>();
  const heard = pauses.paused.subscribe(({ until }) => events.push({ node: name, what: 'heard pause', at: Date.now(), until }));
  const pipeline: Subscription = collectResources(demand, {
    collectors: new Map([['github', { collector: counted, budget }]]),
    scheduler: asyncScheduler,
    timeoutMs: 2_000,
    batchWindowMs: collectionDefaults.batchWindowMs,
    breaker: collectionDefaults.breaker,
    pauses,
    sharedBudget: callBudget,
  }).subscribe();
  t.teardown(async () => {
    pipeline.unsubscribe();
    heard.unsubscribe();
    pauses.stop();
    await http.close();
    await closeNats(connection, 500);
  });
  return { demand, pauses };
}

const accounts = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, n) => resourceKey({ platform: 'github', type: 'account', identifier: `${prefix}${n}` }));

t.test('upstream budgets - two nodes together make at most the platform budget of calls in each window', async (t) => {
  const server = await startNatsServer(t);
  const emulator = await startEmulator(0);
  t.teardown(() => emulator.close());
  // 300 a minute is 10 in a window of 2 s; each node alone spaces its calls 200 ms apart, so it
  // would make 10 a window by itself and the two together 20.
  const budget = { concurrency: 2, perMinute: 300 };
  const cap = 10;
  const events: Event[] = [];
  const nodes = await Promise.all(['a', 'b'].map((name) => startNode(t, server.url, name, emulator.url, budget, events)));
  // The window under way is partly over: the three after it are counted, each whole.
  const first = Math.floor(Date.now() / windowMs) + 1;
  for (const [index, node] of nodes.entries()) for (const key of accounts(`user${index}x`, 200)) node.demand.next(key);
  // A call in the window after them shows the three are over (events are recorded in time order).
  await eventually(
    async () => events,
    (list) => list.some((event) => event.what === 'call' && event.at >= (first + 3) * windowMs),
    { timeoutMs: 20_000, orFail: 'a call after the three windows' },
  );

  const calls = events.filter((event) => event.what === 'call');
  for (let window = first; window < first + 3; window++) {
    const inWindow = calls.filter((call) => Math.floor(call.at / windowMs) === window);
    const byNode = ['a', 'b'].map((node) => inWindow.filter((call) => call.node === node).length);
    t.equal(inWindow.length, cap, `window ${window - first + 1}: ${byNode.join(' + ')} calls, the budget's ${cap}`);
    t.ok(
      byNode.every((count) => count > 0),
      'both nodes called',
    );
  }
});

t.test('upstream budgets - a rate-limit answer on one node stops the other node calling the platform until the pause ends', async (t) => {
  const server = await startNatsServer(t);
  // The emulator's rate-limit answer names a reset 60 s ahead on its clock, which runs 58 s behind:
  // the pause ends 2-3 s from now.
  const emulator = await startEmulator(0, () => Date.now() - 58_000);
  t.teardown(() => emulator.close());
  const budget = { concurrency: 2, perMinute: 600 };
  const events: Event[] = [];
  const [a, b] = await Promise.all(['a', 'b'].map((name) => startNode(t, server.url, name, emulator.url, budget, events)));
  for (const key of accounts('steady', 150)) b!.demand.next(key);
  // b calls steadily before the rate-limit answer comes.
  await eventually(
    async () => events,
    (list) => list.some((event) => event.node === 'b' && event.what === 'call'),
  );
  emulator.world.setFault('github', 'limited', 'ratelimit');
  a!.demand.next(resourceKey({ platform: 'github', type: 'account', identifier: 'limited' }));
  // Until b calls again after hearing the pause: every call it made in between is then recorded.
  const callAfterPause = (list: Event[]) => {
    const heard = list.findIndex((event) => event.node === 'b' && event.what === 'heard pause');
    return heard >= 0 && list.slice(heard).some((event) => event.node === 'b' && event.what === 'call');
  };
  await eventually(async () => events, callAfterPause, 15_000);

  const answeredOnA = events.findIndex((event) => event.node === 'a' && event.what === 'answered');
  const heardOnB = events.findIndex((event, index) => index > answeredOnA && event.node === 'b' && event.what === 'heard pause');
  t.ok(answeredOnA >= 0 && heardOnB > answeredOnA, 'b heard the pause after a got the rate-limit answer');
  const { until, at: heardAt } = events[heardOnB]!;
  t.comment(`pause reached the other node ${heardAt - events[answeredOnA]!.at} ms after the answer; it lasted ${until! - heardAt} ms`);
  const callsOnB = events.filter((event) => event.node === 'b' && event.what === 'call');
  t.ok(
    callsOnB.some((call) => call.at < heardAt),
    'b called before the pause',
  );
  const afterHearing = events.slice(heardOnB).filter((event) => event.node === 'b' && event.what === 'call');
  // Timers may fire a millisecond early by the wall clock.
  t.same(
    afterHearing.filter((call) => call.at < until! - 2),
    [],
    'b made no call between hearing the pause and its end',
  );
  t.ok(afterHearing.length > 0, 'and called again once it ended');
});
