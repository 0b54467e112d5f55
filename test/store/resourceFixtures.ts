// Resources as the machine makes them, for the store's tests: each `followers` count gives
// a different snapshot, view and due time, so that what is stored shows whose write it was.
import { initialTransition, transition } from 'xstate';
import { createResourceMachine, dueEventFor } from '../../machines/resource.js';
import { defaultPolicy } from '../../src/config.js';
import { renderView } from '../../src/resources/view.js';
import type { TransitionCause } from '../../src/store/transitionHistory.js';
import type { ResourceStore, ResourceView, StoredResource, VersionedResource } from '../../src/store/resourceStore.js';

const machine = createResourceMachine(defaultPolicy);
export const at = Date.UTC(2026, 10, 23, 12);

export function pendingResource(): StoredResource {
  const [pending] = initialTransition(machine, { createdAt: at });
  return { value: 'pending', context: pending.context };
}

/** Collected `followers` ms after `since`, so that its next due time is its own as well. */
export function availableResource(followers: number, since = at): StoredResource {
  const [pending] = initialTransition(machine, { createdAt: since });
  const [available] = transition(machine, pending, {
    type: 'COLLECTED',
    at: since + followers,
    datapoints: {
      metrics: { followers: { value: followers, semantic: 'followers' } },
      attributes: { likes: { value: followers * 3, semantic: 'likes' } },
    },
  });
  return { value: 'available', context: available.context };
}

export const viewOf = (resource: StoredResource): ResourceView => renderView(resource.value, resource.context);

/** One commit of a test: `next` as the successor of `base` (absent: a new resource). */
export interface TestCommit {
  key: string;
  base?: VersionedResource | undefined;
  next: StoredResource;
  /** The transition that made it; by default a creation, or a collection. */
  cause?: TransitionCause;
}

export function commitResource(store: ResourceStore, { key, base, next, cause }: TestCommit) {
  const madeBy = cause ?? { event: base === undefined ? 'CREATED' : 'COLLECTED', at: Date.now() };
  return store.commit(key, base, { resource: next, view: viewOf(next), event: dueEventFor[next.value], cause: madeBy });
}
