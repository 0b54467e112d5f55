// Persistence of resource snapshots, their pre-rendered views and the due index, always
// written together in one transaction so that no reader ever sees a torn resource.
import type { ResourceContext, DueEventType } from '../../machines/resource.js';
import type { ResourceStatus } from '../model.js';
import { limits } from '../config.js';
import type { Databases } from './environment.js';
import { Doorkeeper } from './doorkeeper.js';
import { RecentMap } from './recentMap.js';

export interface StoredResource {
  value: ResourceStatus;
  context: ResourceContext;
}

/** What a search needs of a resource, and nothing more. */
export interface ResourceView {
  /** The result entry after its echoed platform/type/identifier: `,"status":...}` */
  tail: string;
  /** For available resources: when a search should ask for an eager refresh; otherwise 0. */
  refreshAfter: number;
}

export interface DueEntry {
  key: string;
  dueAt: number;
  event: DueEventType;
}

export class ResourceStore {
  /**
   * Views recently read or written, so that a search of warm resources decodes nothing. The
   * server is the only writer of views, and a view enters here only once its commit is durable,
   * so a search never shows what a crash could take back.
   */
  private readonly recentViews: RecentMap<string, ResourceView>;
  /**
   * A view read from disk is kept only on its second recent read: random searches over a
   * million resources read each view about once, and caching all of them cost ~20% of a cold
   * search's requests/s with no hit to show for it.
   */
  private readonly viewDoorkeeper: Doorkeeper;
  /**
   * Snapshots recently committed, on the same terms as views: a collection reads its
   * resource's snapshot twice (lease, then result), and the second read is then a map hit
   * instead of a decode. Snapshots are never mutated: every machine step builds new ones.
   */
  private readonly recentSnapshots = new RecentMap<string, StoredResource>(2 * limits.maxResourcesInWork);

  constructor(
    private readonly dbs: Databases,
    viewCacheGeneration = 50_000,
  ) {
    this.recentViews = new RecentMap(viewCacheGeneration);
    this.viewDoorkeeper = new Doorkeeper(2 * viewCacheGeneration);
  }

  snapshot(key: string): StoredResource | undefined {
    return this.recentSnapshots.get(key) ?? (this.dbs.resources.get(key) as StoredResource | undefined);
  }

  view(key: string): ResourceView | undefined {
    const recent = this.recentViews.get(key);
    if (recent) return recent;
    const stored = this.dbs.views.get(key) as [string, number] | undefined;
    if (!stored) return undefined;
    const view = { tail: stored[0], refreshAfter: stored[1] };
    if (this.viewDoorkeeper.admit(key)) this.recentViews.set(key, view);
    return view;
  }

  /** Persists one resource change durably; its view is served from memory from then on. */
  commit(key: string, previous: StoredResource | undefined, next: StoredResource, view: ResourceView, event: DueEventType) {
    return this.dbs.root.transaction(() => this.stage(key, previous, next, view, event)).then((committed) => {
      this.recentViews.set(key, view);
      this.recentSnapshots.set(key, next);
      return committed;
    });
  }

  /** The writes of one resource change, for a caller that runs them in its own transaction. */
  stage(key: string, previous: StoredResource | undefined, next: StoredResource, view: ResourceView, event: DueEventType): void {
    const { resources, views, due } = this.dbs;
    if (previous && previous.context.nextDueAt !== next.context.nextDueAt) {
      due.remove([previous.context.nextDueAt, key]);
    }
    due.put([next.context.nextDueAt, key], event);
    resources.put(key, next);
    views.put(key, [view.tail, view.refreshAfter]);
  }

  /** Due work in due order, oldest first, at most `limit` entries. */
  dueBefore(now: number, limit: number): DueEntry[] {
    const entries: DueEntry[] = [];
    for (const { key, value } of this.dbs.due.getRange({ start: [0], end: [now + 1], limit })) {
      const [dueAt, resourceKey] = key as [number, string];
      entries.push({ key: resourceKey, dueAt, event: value as DueEventType });
    }
    return entries;
  }

  count(): number {
    // getStats reads the B-tree header; getCount walks every entry and maps the whole file.
    // Views, not snapshots: the snapshots' database also holds their shared record structures.
    return (this.dbs.views.getStats() as { entryCount: number }).entryCount;
  }
}
