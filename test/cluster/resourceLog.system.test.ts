// The resource log against its contract, in process and on JetStream, and what only a log shared
// by several nodes through a nats-server must do.
import t, { type Test } from 'tap';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { closeNats, connectNats } from '../../src/cluster/natsConnection.js';
import {
  defaultResourceLogOptions,
  JetStreamResourceLog,
  ResourceLogError,
  resourceLogNames,
} from '../../src/seams/resourceLog/resourceLogStream.js';
import { availableResource, pendingResource } from '../store/resourceFixtures.js';
import { startNatsServer } from '../helpers/natsServer.js';
import { changeOf, nextChanges, resourceLogContract } from '../../src/seams/resourceLog/resourceLog.contract.js';

const options = { ...defaultResourceLogOptions(), requestTimeoutMs: 2_000 };

async function openLog(t: Test, url: string, name: string) {
  const connection = await connectNats({ servers: [url], name });
  t.teardown(() => closeNats(connection, 500));
  return { connection, log: await JetStreamResourceLog.open(connection, options) };
}

resourceLogContract(t, 'JetStream resource log', async (t) => {
  const server = await startNatsServer(t);
  return (await openLog(t, server.url, 'contract')).log;
});

t.test('JetStream resource log - of ten nodes creating one key at once, exactly one appends', async (t) => {
  const server = await startNatsServer(t);
  const nodes = await Promise.all(Array.from({ length: 10 }, (_, n) => openLog(t, server.url, `node ${n}`)));
  const results = await Promise.all(nodes.map(({ log }, n) => log.append('gh/account/new', 0, changeOf(availableResource(n)))));
  const winners = results.filter((result) => result.appended);
  t.equal(winners.length, 1);
  const winner = await nodes[0]!.log.latest('gh/account/new');
  for (const result of results.filter((result) => !result.appended)) {
    t.same(result.appended ? undefined : result.current, winner, 'every loser is told the winner');
  }
});

t.test('JetStream resource log - the stream keeps one message per resource', async (t) => {
  const server = await startNatsServer(t);
  const { log, connection } = await openLog(t, server.url, 'node');
  let revision = 0;
  for (let n = 0; n < 5; n++) {
    const result = await log.append('gh/account/a', revision, changeOf(availableResource(n)));
    revision = result.appended ? result.revision : -1;
  }
  await log.append('gh/account/b', 0, changeOf(pendingResource()));
  const manager = await jetstream(connection).jetstreamManager();
  const info = await manager.streams.info(resourceLogNames.stream);
  t.same([info.state.messages, info.state.first_seq, info.state.last_seq], [2, 5, 6]);
});

t.test('JetStream resource log - a message that is not a resource change is an error naming it', async (t) => {
  const server = await startNatsServer(t);
  const { log, connection } = await openLog(t, server.url, 'node');
  await jetstream(connection).publish(
    `${resourceLogNames.subjectPrefix}.${Buffer.from('gh/account/x').toString('base64url')}`,
    '{"resource":1}',
  );
  const error = new ResourceLogError('resource log message 1 (gh/account/x) is not a resource change: {"resource":1}');
  await t.rejects(log.latest('gh/account/x'), error);
  const follower = await log.follow(0);
  t.teardown(() => follower.stop());
  await t.rejects(nextChanges(follower, 1), error);
});

t.test("JetStream resource log - a stream left with other settings is brought to the log's own", async (t) => {
  const server = await startNatsServer(t);
  const connection = await connectNats({ servers: [server.url], name: 'older node' });
  t.teardown(() => closeNats(connection, 500));
  const manager = await jetstreamManager(connection);
  await manager.streams.add({ name: resourceLogNames.stream, subjects: [`${resourceLogNames.subjectPrefix}.>`], max_msgs_per_subject: 5 });
  const { log } = await openLog(t, server.url, 'node');
  t.equal((await manager.streams.info(resourceLogNames.stream)).config.max_msgs_per_subject, 1);
  const first = await log.append('gh/account/a', 0, changeOf(pendingResource()));
  await log.append('gh/account/a', first.appended ? first.revision : -1, changeOf(availableResource(1)));
  t.equal((await manager.streams.info(resourceLogNames.stream)).state.messages, 1, 'one message per resource');
});
