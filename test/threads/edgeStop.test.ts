// The order of a stop over edge threads (docs/guarantees.md#threads): no edge is told to stop,
// and so to answer 503 with Connection: close, before every edge has closed its listen socket.
import t from 'tap';
import { type Edge, stopAll } from '../../src/threads/edges.js';
import type { FromEdge, ToEdge } from '../../src/threads/edgeMessages.js';

/** An edge whose answers the test gives, and what it was told, in order across every edge. */
function fakeEdge(name: string, told: string[]) {
  const inbox: FromEdge[] = [];
  const waiting: Array<(message: FromEdge) => void> = [];
  const edge: Edge = {
    worker: { postMessage: (message: ToEdge) => void told.push(`${name} ${message.type}`) },
    next: () => (inbox.length > 0 ? Promise.resolve(inbox.shift()!) : new Promise((resolve) => waiting.push(resolve))),
  };
  const answer = (message: FromEdge) => {
    const waiter = waiting.shift();
    if (waiter) waiter(message);
    else inbox.push(message);
  };
  return { edge, answer };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

t.test('edge stop - every listen socket closes before any edge stops', async (t) => {
  const told: string[] = [];
  const quick = fakeEdge('quick', told);
  const slow = fakeEdge('slow', told);
  const stopped = stopAll([quick.edge, slow.edge]);
  await turn();
  t.same(told, ['quick stopListening', 'slow stopListening']);
  quick.answer({ type: 'notListening' });
  await turn();
  t.same(told, ['quick stopListening', 'slow stopListening'], 'the quick edge waits while the slow one still listens');
  slow.answer({ type: 'notListening' });
  await turn();
  t.same(told.slice(2).sort(), ['quick stop', 'slow stop'], 'then both stop');
  quick.answer({ type: 'stopped' });
  slow.answer({ type: 'stopped' });
  await stopped;
});

t.test('edge stop - an edge that had already ended is not waited for', async (t) => {
  const told: string[] = [];
  const live = fakeEdge('live', told);
  const ended = fakeEdge('ended', told);
  ended.answer({ type: 'failed', message: 'exited with 1' });
  const stopped = stopAll([live.edge, ended.edge]);
  live.answer({ type: 'notListening' });
  await turn();
  t.same(told, ['live stopListening', 'ended stopListening', 'live stop']);
  live.answer({ type: 'stopped' });
  await stopped;
});
