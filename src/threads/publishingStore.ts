// The resource thread's store when edge threads serve searches (docs/guarantees.md, "Threads"):
// every view written (a commit that won, or a change from a cluster's log) is posted to every
// edge as soon as the writes resolved with it have run their callbacks (a microtask later),
// before the resource's next step can begin. So for any one resource, an edge receives views in
// write order, and a view older than one on disk was always posted before that one landed
// (src/threads/edgeViews.ts relies on this). The views of writes that resolve together (one
// LMDB transaction's) go in one message: a postMessage costs tens of microseconds, more than
// the rest of a collection's step (bench/README.md, "Cost account").
import type { MessagePort } from 'node:worker_threads';
import type { Databases } from '../store/environment.js';
import { ResourceStore, type ResourceCommitLog, type ResourceView } from '../store/resourceStore.js';

/** [key, tail, refreshAfter]: a committed view as posted to the edges. */
export type PostedView = [key: string, tail: string, refreshAfter: number];
/** The views of one message, flat: [key, tail, refreshAfter, key, tail, refreshAfter, ...] (one PostedView is a batch of one). */
export type PostedViews = Array<string | number>;

export class PublishingResourceStore extends ResourceStore {
  private readonly edges: MessagePort[] = [];
  private batch: PostedViews = [];

  constructor(dbs: Databases, log?: ResourceCommitLog) {
    super(dbs, log);
  }

  /** Posts every view committed from now on to `edge`. */
  publishTo(edge: MessagePort): void {
    this.edges.push(edge);
  }

  protected override committed(key: string, view: ResourceView): void {
    if (this.batch.length === 0) queueMicrotask(this.post);
    this.batch.push(key, view.tail, view.refreshAfter);
  }

  private readonly post = (): void => {
    const batch = this.batch;
    this.batch = [];
    for (const edge of this.edges) edge.postMessage(batch);
  };
}
