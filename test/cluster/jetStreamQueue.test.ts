// The JetStream collection queue against the CollectionQueue contract, and what only a queue
// shared by several nodes must do.
import t from 'tap';
import { collectionQueueContract } from '../collection/collectionQueue.contract.js';
import { startNatsServer } from '../helpers/natsServer.js';
import { openTestQueue, untilLeasesExpire } from '../helpers/natsQueue.js';

collectionQueueContract(t, 'JetStream collection queue', async (t) => {
  const server = await startNatsServer(t);
  const { queue } = await openTestQueue(t, server.url, 'contract');
  return { queue, expireLeases: untilLeasesExpire };
});
