// The shared call budget on a real nats-server (docs/design/cluster.md#upstream-budgets-cluster-wide): windows' caps, blocks shared between nodes, and a node cut off from NATS.
import t, { type Test } from 'tap';
import { budgetHealth, callsInWindow, ClusterCallBudget } from '../../src/seams/callBudget/clusterCallBudget.js';
import { closeNats, connectNats } from '../../src/cluster/natsConnection.js';
import { Health } from '../../src/health.js';
import { silentLogger } from '../../src/log.js';
import { startNatsServer, untilReconnected } from '../helpers/natsServer.js';
import { callBudgetContract } from '../../src/seams/callBudget/callBudget.contract.js';

const windowMs = 60_000;
/** A fixed time inside one window: nothing in these tests depends on the clock moving. */
const now = () => 29_000_000 * windowMs + 1_000;

async function openBudget(t: Test, url: string, name: string, blocksPerWindow: number, clock = now) {
  const connection = await connectNats({ servers: [url], name });
  t.teardown(() => closeNats(connection, 500));
  const health = new Health();
  const budget = await ClusterCallBudget.open(
    connection,
    { requestTimeoutMs: 500, keptMs: 600_000 },
    { windowMs, blocksPerWindow, retryMs: 1_000, now: clock, health, log: silentLogger },
  );
  return { budget, health, connection };
}

callBudgetContract(t, 'cluster call budget', async (t, clock) => {
  const server = await startNatsServer(t);
  return (await openBudget(t, server.url, 'alone', 8, clock)).budget;
});

t.test('call budget - the windows of a fractional rate add up to it exactly', async (t) => {
  const caps = Array.from({ length: 10 }, (_, n) => callsInWindow(1.6, 60_000, 29_000_000 + n));
  t.same(
    caps.reduce((sum, cap) => sum + cap, 0),
    16,
    `1.6 a minute: ${caps.join(', ')}`,
  );
  t.ok(caps.every((cap) => cap === 1 || cap === 2));
  t.equal(callsInWindow(300, 2_000, 123), 10);
  t.equal(callsInWindow(80, 60_000, 29_000_000), 80);
});

t.test('call budget - nodes reserve blocks of the window and together take its cap, no more', async (t) => {
  const server = await startNatsServer(t);
  // 10 calls a window, reserved 5 at a time.
  const [a, b] = await Promise.all(['a', 'b'].map((name) => openBudget(t, server.url, name, 2)));
  t.same(await a!.budget.takeCall('github', 10), { taken: true }, 'a reserves a block of 5 and spends 1');
  const onB = [];
  for (let n = 0; n < 6; n++) onB.push(await b!.budget.takeCall('github', 10));
  t.same(onB.slice(0, 5), Array(5).fill({ taken: true }), 'b spends the other block');
  const nextWindow = (Math.floor(now() / windowMs) + 1) * windowMs;
  t.same(onB[5], { taken: false, retryAt: nextWindow }, 'then waits for the next window, though a holds 4 it has not spent');
  const onA = [];
  for (let n = 0; n < 5; n++) onA.push(await a!.budget.takeCall('github', 10));
  t.same(onA, [...Array(4).fill({ taken: true }), { taken: false, retryAt: nextWindow }], 'a spends what it holds');
  t.same(await b!.budget.takeCall('bluesky', 10), { taken: true }, 'each platform has its own budget');
});

t.test('call budget - a node cut off from NATS spends what it holds, then waits, and reserves again once back', async (t) => {
  const server = await startNatsServer(t);
  const { budget, health, connection } = await openBudget(t, server.url, 'a', 2);
  t.same(await budget.takeCall('x', 10), { taken: true });
  const reconnected = untilReconnected(connection);
  await server.kill();
  const held = [];
  for (let n = 0; n < 4; n++) held.push(await budget.takeCall('x', 10));
  t.same(held, Array(4).fill({ taken: true }), 'the 4 calls it held');
  t.same(await budget.takeCall('x', 10), { taken: false, retryAt: now() + 1_000 }, 'then none');
  t.match(health.problems(), [{ component: budgetHealth, message: /x calls cannot be reserved/ }]);
  await server.restart();
  await reconnected;
  t.same(await budget.takeCall('x', 10), { taken: true }, 'the other block of the window');
  t.same(health.problems(), [], 'and the problem is cleared');
  t.same(await budget.takeCall('x', 10), { taken: true });
});
