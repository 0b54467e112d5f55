// The resource store of a server without edge threads (docs/push.md, "Where changes come
// from"): each commit that wins tells the view-change feed, once it is durable, so that a
// client is never shown a view a crash could take back.
import type { DueEventType } from '../../machines/resource.js';
import type { Databases } from '../store/environment.js';
import { ResourceStore, type ResourceView, type StoredResource } from '../store/resourceStore.js';
import type { ViewChanges } from './viewChanges.js';

export class NotifyingResourceStore extends ResourceStore {
  constructor(
    dbs: Databases,
    private readonly changes: ViewChanges,
  ) {
    super(dbs);
  }

  override async commit(
    key: string,
    expectedVersion: number | undefined,
    previous: StoredResource | undefined,
    next: StoredResource,
    view: ResourceView,
    event: DueEventType,
  ): Promise<boolean> {
    const won = await super.commit(key, expectedVersion, previous, next, view, event);
    if (won) this.changes.changed(key, view);
    return won;
  }
}
