// The resource thread's store when edge threads serve searches (docs/guarantees.md, "Threads"):
// every view written (a commit that won, or a change from a cluster's log) is posted to every
// edge the moment its write resolves, before the resource's next step can begin. So for any one
// resource, an edge receives views in write order, and a view older than one on disk was always
// posted before that one landed (src/threads/edgeViews.ts relies on this).
import type { MessagePort } from 'node:worker_threads';
import type { HistoryPolicy } from '../config.js';
import type { Databases } from '../store/environment.js';
import { ResourceStore, type ResourceCommitLog, type ResourceView } from '../store/resourceStore.js';

/** [key, tail, refreshAfter]: a committed view as posted to the edges. */
export type PostedView = [key: string, tail: string, refreshAfter: number];

export class PublishingResourceStore extends ResourceStore {
  private readonly edges: MessagePort[] = [];

  constructor(dbs: Databases, log?: ResourceCommitLog, history?: HistoryPolicy) {
    super(dbs, log, history);
  }

  /** Posts every view committed from now on to `edge`. */
  publishTo(edge: MessagePort): void {
    this.edges.push(edge);
  }

  protected override committed(key: string, view: ResourceView): void {
    const posted: PostedView = [key, view.tail, view.refreshAfter];
    for (const edge of this.edges) edge.postMessage(posted);
  }
}
