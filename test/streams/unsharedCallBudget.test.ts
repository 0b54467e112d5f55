// The call budget of a node alone against the SharedCallBudget contract.
import t from 'tap';
import { UnsharedCallBudget } from '../../streams/unsharedCallBudget.js';
import { callBudgetContract } from '../../src/seams/callBudget/callBudget.contract.js';

callBudgetContract(t, 'unshared call budget', async () => new UnsharedCallBudget());

t.test('unshared call budget - answers at once, so the gate adds no wait to a call', async (t) => {
  const turn = new UnsharedCallBudget().takeCall('github', 60);
  t.notOk(turn instanceof Promise);
  t.same(turn, { taken: true });
});
