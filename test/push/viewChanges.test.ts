// The in-process view-change feed against the feed contract.
import t from 'tap';
import { InProcessViewChanges } from '../../src/seams/viewChanges/viewChanges.js';
import { viewChangesContract } from '../../src/seams/viewChanges/viewChanges.contract.js';

viewChangesContract(t, 'in-process view changes', async () => {
  const feed = new InProcessViewChanges();
  return { teller: feed, hearer: feed, delivered: async () => undefined };
});
