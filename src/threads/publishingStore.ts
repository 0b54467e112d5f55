// The resource thread's store when edge threads serve searches (docs/guarantees.md, "Threads"):
// every committed view is posted to every edge the moment its commit resolves, before the
// resource's next step can begin. So for any one resource, an edge receives views in commit
// order, and a view older than one on disk was always posted before that one landed
// (src/threads/edgeViews.ts relies on this).
import type { MessagePort } from 'node:worker_threads';
import type { DueEventType } from '../../machines/resource.js';
import type { Databases } from '../store/environment.js';
import { ResourceStore, type ResourceView, type StoredResource } from '../store/resourceStore.js';
import type { TransitionCause } from '../store/transitionHistory.js';

/** [key, tail, refreshAfter]: a committed view as posted to the edges. */
export type PostedView = [key: string, tail: string, refreshAfter: number];

export class PublishingResourceStore extends ResourceStore {
  private readonly edges: MessagePort[] = [];

  constructor(dbs: Databases) {
    super(dbs);
  }

  /** Posts every view committed from now on to `edge`. */
  publishTo(edge: MessagePort): void {
    this.edges.push(edge);
  }

  override async commit(
    key: string,
    expectedVersion: number | undefined,
    previous: StoredResource | undefined,
    next: StoredResource,
    view: ResourceView,
    event: DueEventType,
    cause: TransitionCause,
  ): Promise<boolean> {
    const won = await super.commit(key, expectedVersion, previous, next, view, event, cause);
    if (won) {
      const posted: PostedView = [key, view.tail, view.refreshAfter];
      for (const edge of this.edges) edge.postMessage(posted);
    }
    return won;
  }
}
