// The in-process resource log against the ResourceLog contract, in the fast tier; the JetStream
// log runs the same suite in test/cluster/resourceLog.system.test.ts.
import t from 'tap';
import { InProcessResourceLog } from '../../src/seams/resourceLog/resourceLog.js';
import { resourceLogContract } from '../../src/seams/resourceLog/resourceLog.contract.js';

resourceLogContract(t, 'in-process resource log', async () => new InProcessResourceLog());
