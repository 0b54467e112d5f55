// The order of a stop over edge threads (docs/guarantees.md#threads): no edge is told to stop,
// and so to answer 503 with Connection: close, before every edge has closed its listen socket.
import t from 'tap';
import { stopAll } from '../../src/threads/edges.js';

/** An edge whose listen socket closes when the test says, recording what it was told in order across every edge. */
function fakeEdge(name: string, told: string[], alreadyEnded = false) {
  let closeListen = () => {};
  const closed = alreadyEnded ? Promise.resolve() : new Promise<void>((resolve) => (closeListen = resolve));
  const edge = {
    stopListening() {
      told.push(`${name} stopListening`);
      return closed;
    },
    end(how: 'stop' | 'handOver') {
      told.push(`${name} ${how}`);
      return Promise.resolve();
    },
  };
  return { edge, closeListen: () => closeListen() };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

t.test('edge stop - every listen socket closes before any edge stops', async (t) => {
  const told: string[] = [];
  const quick = fakeEdge('quick', told);
  const slow = fakeEdge('slow', told);
  const stopped = stopAll([quick.edge, slow.edge]);
  await turn();
  t.same(told, ['quick stopListening', 'slow stopListening']);
  quick.closeListen();
  await turn();
  t.same(told, ['quick stopListening', 'slow stopListening'], 'the quick edge waits while the slow one still listens');
  slow.closeListen();
  await stopped;
  t.same(told.slice(2).sort(), ['quick stop', 'slow stop'], 'then both stop');
});

t.test('edge stop - an edge that had already ended is not waited for', async (t) => {
  const told: string[] = [];
  const live = fakeEdge('live', told);
  const ended = fakeEdge('ended', told, true);
  const stopped = stopAll([live.edge, ended.edge]);
  live.closeListen();
  await stopped;
  t.same(told, ['live stopListening', 'ended stopListening', 'live stop', 'ended stop']);
});
