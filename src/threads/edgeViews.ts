// The views an edge thread answers searches with (docs/guarantees.md#threads): those the
// resource thread posted, and otherwise what the shared LMDB environment holds.
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { ResourceView, ViewSource } from '../resources/view.js';
import type { Databases } from '../store/environment.js';
import { ViewCache } from '../store/viewCache.js';
import type { ViewChanges } from '../seams/viewChanges/viewChanges.js';
import type { PostedViews } from './edgeMessages.js';

/**
 * A committed view reaches the edge as soon as its message is read (the next turn of its loop),
 * and the edge never goes back to an older view of a resource: posted views arrive in commit
 * order per resource (publishViews, src/threads/portLink.ts), and see `view` for reads from disk.
 */
export class EdgeViews implements ViewSource {
  private readonly recent = new ViewCache();

  constructor(
    private readonly dbs: Databases,
    private readonly posted: MessagePort,
    /** Told of every view posted (docs/push.md#where-changes-come-from). */
    private readonly changes?: ViewChanges,
  ) {
    posted.on('message', (views: PostedViews) => this.rememberAll(views));
  }

  view(key: string): ResourceView | undefined {
    const known = this.recent.get(key);
    if (known) return known;
    const stored = this.dbs.views.get(key);
    // Every message already posted is taken now. A view older than the one read was posted before
    // that one was committed, so it is among them, and the newest seen is what the edge keeps.
    let received = false;
    for (let message = receiveMessageOnPort(this.posted); message; message = receiveMessageOnPort(this.posted)) {
      this.rememberAll(message.message as PostedViews);
      received = true;
    }
    // Looked up again only if views came in (a cold search's lookups are mostly memory misses).
    const posted = received ? this.recent.get(key) : undefined;
    if (posted || !stored) return posted;
    return this.recent.fromDisk(key, stored);
  }

  close(): void {
    this.posted.close();
  }

  /** The views of one message, in the order they were written. */
  private rememberAll(views: PostedViews): void {
    for (let index = 0; index < views.length; index += 3) {
      const key = views[index] as string;
      const view = { entryEnd: views[index + 1] as string, refreshAfter: views[index + 2] as number };
      this.recent.set(key, view);
      this.changes?.changed(key, view);
    }
  }
}
