// The resource thread's views as edge threads hear them (docs/guarantees.md, "Threads"): every
// view written (a commit that won, or a change from a cluster's log) is posted to the edge the
// moment its write resolves, before the resource's next step can begin. So for any one resource,
// an edge receives views in write order, and a view older than one on disk was always posted
// before that one landed (src/threads/edgeViews.ts relies on this).
import type { MessagePort } from 'node:worker_threads';
import type { ResourceStore } from '../store/resourceStore.js';

/** [key, tail, refreshAfter]: a committed view as posted to the edges. */
export type PostedView = [key: string, tail: string, refreshAfter: number];

/** Posts every view `store` commits from now on to `edge`. */
export function publishViews(store: ResourceStore, edge: MessagePort): void {
  store.onCommitted((key, view) => {
    const posted: PostedView = [key, view.tail, view.refreshAfter];
    edge.postMessage(posted);
  });
}
