// Pre-renders the part of a search result that depends on the resource alone, so that a
// search concatenates strings instead of building and serializing objects
// (docs/architecture.md#the-path-of-a-search).
import type { ResourceContext } from '../../machines/resource.js';
import type { ResourceStatus } from '../model.js';
import type { ResourceView } from '../store/resourceStore.js';

export type { ResourceView };

/** Where a search reads views from: the store, or anything that reads it (docs/architecture.md#the-path-of-a-search). */
export interface ViewSource {
  view(key: string): ResourceView | undefined;
}

export const pendingView: ResourceView = { entryEnd: ',"status":"pending"}', refreshAfter: 0 };

/** True when a search seeing `view` at `now` should ask for it: unknown, or due an eager refresh. */
export function wantedAt(view: ResourceView | undefined, now: number): boolean {
  return view === undefined || (view.refreshAfter !== 0 && now >= view.refreshAfter);
}

export function renderView(status: ResourceStatus, context: ResourceContext): ResourceView {
  // docs/api.md#a-11: datapoints appear once collected; pending and not_found carry four fields.
  const showsData = (status === 'available' || status === 'stale') && context.metrics !== null;
  let entryEnd = `,"status":"${status}"`;
  if (showsData) {
    entryEnd += `,"metrics":${JSON.stringify(context.metrics)}`;
    if (context.attributes) entryEnd += `,"attributes":${JSON.stringify(context.attributes)}`;
  }
  return { entryEnd: `${entryEnd}}`, refreshAfter: status === 'available' ? context.nextDueAt : 0 };
}
