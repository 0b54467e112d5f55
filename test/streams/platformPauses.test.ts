// The in-process board of platform pauses (a node alone) against the PlatformPauses contract.
import t from 'tap';
import { InProcessPlatformPauses } from '../../streams/platformPauses.js';
import { platformPausesContract } from '../../src/seams/platformPauses/platformPauses.contract.js';

platformPausesContract(t, 'in-process platform pauses', async () => {
  const board = new InProcessPlatformPauses(Date.now);
  return { nodes: [board, board], join: async () => board };
});
