// The resource thread's views as edge threads hear them (docs/guarantees.md#threads): every
// view written (a commit that won, or a change from a cluster's log) is posted to the edge as
// soon as the writes resolved with it have run their callbacks (a microtask later), before the
// resource's next step can begin. So for any one resource, an edge receives views in write
// order, and a view older than one on disk was always posted before that one landed
// (src/threads/edgeViews.ts relies on this). The views of writes that resolve together (one
// LMDB transaction's) go in one message: a postMessage costs tens of microseconds, more than
// the rest of a collection's step (bench/README.md, "Cost account").
import type { MessagePort } from 'node:worker_threads';
import type { ResourceStore } from '../store/resourceStore.js';

/** [key, tail, refreshAfter]: a committed view as posted to the edges. */
export type PostedView = [key: string, tail: string, refreshAfter: number];
/** The views of one message, flat (one PostedView is a batch of one): [key, tail, refreshAfter, key, tail, refreshAfter, ...]. */
export type PostedViews = Array<string | number>;

/** Posts every view `store` commits from now on to `edge`, a microtask's worth per message. */
export function publishViews(store: ResourceStore, edge: MessagePort): void {
  let batch: PostedViews = [];
  const post = (): void => {
    const views = batch;
    batch = [];
    edge.postMessage(views);
  };
  store.onCommitted((key, view) => {
    if (batch.length === 0) queueMicrotask(post);
    batch.push(key, view.tail, view.refreshAfter);
  });
}
