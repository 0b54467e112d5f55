// An edge thread's views (src/threads/edgeViews.ts) over a real MessageChannel and a real LMDB
// environment: posted views win over older reads, a view read from disk is kept from its second
// reading on, and a read never returns a view older than one this edge returned before, however
// posts and disk writes interleave.
import { once } from 'node:events';
import { MessageChannel } from 'node:worker_threads';
import t, { type Test } from 'tap';
import { openDatabases, type StoredView } from '../../src/store/environment.js';
import { DemandMessenger, receiveDemand } from '../../src/threads/portLink.js';
import { EdgeViews } from '../../src/threads/edgeViews.js';
import type { PostedView, PostedViews } from '../../src/threads/edgeMessages.js';
import { eventually, tempDataDir } from '../helpers/service.js';

const key = 'github/account/octocat';
const view = (status: string): PostedView => [key, `,"status":"${status}"}`, 0];
const stored = (status: string): StoredView => [`,"status":"${status}"}`, 0];

function edge(t: Test) {
  const dbs = openDatabases(tempDataDir(t));
  const channel = new MessageChannel();
  const views = new EdgeViews(dbs, channel.port2);
  t.teardown(async () => {
    views.close();
    channel.port1.close();
    await dbs.root.close();
  });
  // The edge's own listener was added first, so it has handled a message when this resolves.
  const delivered = () => once(channel.port2, 'message');
  return { dbs, post: (posted: PostedViews) => channel.port1.postMessage(posted), views, delivered };
}

t.test('edge views - a view on disk is served, and a posted view replaces it', async (t) => {
  const { dbs, post, views, delivered } = edge(t);
  t.equal(views.view(key), undefined, 'unknown resource');
  await dbs.views.put(key, stored('pending'));
  t.equal(views.view(key)?.entryEnd, ',"status":"pending"}');
  post(view('available'));
  await delivered();
  t.equal(views.view(key)?.entryEnd, ',"status":"available"}', 'the posted view, as soon as its message is read');
});

t.test('edge views - a read takes the posts already sent: an older view posted before a newer commit never comes back', async (t) => {
  const { dbs, post, views, delivered } = edge(t);
  // The resource thread committed "pending" and posted it, then committed "available"; the
  // post of "available" has not been sent yet, and this edge has read no message so far.
  post(view('pending'));
  await dbs.views.put(key, stored('available'));
  const first = views.view(key)?.entryEnd;
  t.equal(first, ',"status":"pending"}', 'the post waiting in the port wins: the disk view was never served');
  post(view('available'));
  await delivered();
  t.equal(views.view(key)?.entryEnd, ',"status":"available"}', 'then the newer view, and from then on only newer ones');
});

t.test('edge views - after a disk read, later posts of the same resource update it', async (t) => {
  const { dbs, post, views, delivered } = edge(t);
  await dbs.views.put(key, stored('available'));
  t.equal(views.view(key)?.entryEnd, ',"status":"available"}');
  post(view('stale'));
  await delivered();
  t.equal(views.view(key)?.entryEnd, ',"status":"stale"}');
});

t.test('edge views - a view read from disk is kept from its second reading on, not its first', async (t) => {
  const { dbs, views } = edge(t);
  // Disk changes no edge was told of show what the edge kept: a kept view hides them.
  await dbs.views.put(key, stored('first'));
  t.equal(views.view(key)?.entryEnd, ',"status":"first"}');
  await dbs.views.put(key, stored('second'));
  t.equal(views.view(key)?.entryEnd, ',"status":"second"}', 'read once: not kept, read from disk again');
  await dbs.views.put(key, stored('third'));
  t.equal(views.view(key)?.entryEnd, ',"status":"second"}', 'read twice: kept');
});

t.test('demand messenger - what an edge wants reaches the resource thread, in order', async (t) => {
  const channel = new MessageChannel();
  const received: Array<[readonly string[], number]> = [];
  receiveDemand(channel.port1, { wanted: (keys, at) => void received.push([keys, at]) });
  const messenger = new DemandMessenger(channel.port2);
  messenger.wanted(['github/account/a', 'x/account/b'], 1);
  messenger.wanted(['github/account/c'], 2);
  t.same(
    await eventually(
      async () => received,
      (now) => now.length >= 2,
    ),
    [
      [['github/account/a', 'x/account/b'], 1],
      [['github/account/c'], 2],
    ],
  );
  channel.port1.close();
});

t.test('edge views - one message carries the views of several writes: each taken in order, the last of a resource wins', async (t) => {
  const { post, views, delivered } = edge(t);
  const other = 'github/account/hubot';
  post([key, ',"status":"pending"}', 0, other, ',"status":"available"}', 7, key, ',"status":"available"}', 9]);
  await delivered();
  t.same(views.view(key), { entryEnd: ',"status":"available"}', refreshAfter: 9 });
  t.same(views.view(other), { entryEnd: ',"status":"available"}', refreshAfter: 7 });
});
