// The call budget of a node alone (docs/architecture.md#seams): it shares each upstream's calls
// with nobody, so every turn is taken at once; the platform gate's own spacing keeps the node to
// the platform's budget. A cluster's nodes share src/seams/callBudget/clusterCallBudget.ts instead.
import type { CallTurn, SharedCallBudget } from './platformGate.js';
import type { UpstreamKey } from './upstreamKey.js';

const taken: CallTurn = { taken: true };

export class UnsharedCallBudget implements SharedCallBudget {
  takeCall(_upstream: UpstreamKey, _perMinute: number): CallTurn {
    return taken;
  }
}
