// Persistence of resource snapshots, their pre-rendered views and the due index, always
// written together in one transaction so that no reader ever sees a torn resource.
import type { ResourceContext, DueEventType } from '../../machines/resource.js';
import type { ResourceStatus } from '../model.js';
import type { Databases } from './environment.js';

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
  constructor(private readonly dbs: Databases) {}

  snapshot(key: string): StoredResource | undefined {
    return this.dbs.resources.get(key) as StoredResource | undefined;
  }

  view(key: string): ResourceView | undefined {
    const stored = this.dbs.views.get(key) as [string, number] | undefined;
    return stored && { tail: stored[0], refreshAfter: stored[1] };
  }

  commit(key: string, previous: StoredResource | undefined, next: StoredResource, view: ResourceView, event: DueEventType) {
    const { resources, views, due } = this.dbs;
    return this.dbs.root.transaction(() => {
      if (previous && previous.context.nextDueAt !== next.context.nextDueAt) {
        due.remove([previous.context.nextDueAt, key]);
      }
      due.put([next.context.nextDueAt, key], event);
      resources.put(key, next);
      views.put(key, [view.tail, view.refreshAfter]);
    });
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
    return this.dbs.resources.getCount();
  }
}
