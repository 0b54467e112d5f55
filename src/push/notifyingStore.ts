// The resource store of a server without edge threads (docs/push.md, "Where changes come
// from"): each view written, by a commit that won or a change from a cluster's log, tells the
// view-change feed once it is durable, so that a client is never shown a view a crash could
// take back.
import type { HistoryPolicy } from '../config.js';
import type { Databases } from '../store/environment.js';
import { ResourceStore, type ResourceCommitLog, type ResourceView } from '../store/resourceStore.js';
import type { ViewChanges } from './viewChanges.js';

export class NotifyingResourceStore extends ResourceStore {
  constructor(
    dbs: Databases,
    private readonly changes: ViewChanges,
    log?: ResourceCommitLog,
    history?: HistoryPolicy,
  ) {
    super(dbs, log, history);
  }

  protected override committed(key: string, view: ResourceView): void {
    this.changes.changed(key, view);
  }
}
