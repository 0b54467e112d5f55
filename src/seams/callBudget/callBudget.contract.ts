// What every SharedCallBudget must do (streams/platformGate.ts; docs/architecture.md#seams), run
// against the budget of a node alone and the cluster's. What the budget shares among nodes is the
// cluster's own test (test/cluster/clusterCallBudget.system.test.ts); what both promise is that a
// node keeping to a platform's budget on its own is never held back by it.
import type { Test } from 'tap';
import type { CallTurn, SharedCallBudget } from '../../../streams/platformGate.js';

/** Opens a budget no other node shares, reading the time from `now`. */
export type OpenCallBudget = (t: Test, now: () => number) => Promise<SharedCallBudget>;

/** A time within a window of a minute, not at its start: the calls below cross window edges. */
const start = 29_000_000 * 60_000 + 17_000;

export function callBudgetContract(t: Test, name: string, open: OpenCallBudget): void {
  t.test(`${name} - a node alone at its platform's pace takes every turn, across windows`, async (t) => {
    let now = start;
    const budget = await open(t, () => now);
    const perMinute = 12;
    const turns: CallTurn[] = [];
    // Three minutes of calls, each one slot after the last, as the platform gate spaces them.
    for (let call = 0; call < 3 * perMinute; call++) {
      turns.push(await budget.takeCall('github', perMinute));
      now += 60_000 / perMinute;
    }
    t.same(
      turns.filter((turn) => !turn.taken),
      [],
      `${turns.length} calls at ${perMinute} a minute`,
    );
  });

  t.test(`${name} - each platform's turns are its own`, async (t) => {
    const now = start;
    const budget = await open(t, () => now);
    const github = await budget.takeCall('github', 1);
    const bluesky = await budget.takeCall('bluesky', 1);
    t.same([github, bluesky], [{ taken: true }, { taken: true }], 'the first call of a window on each platform');
  });
}
