// The last transitions of each resource: which event moved it from which state to which, and when,
// written inside the resource's commit, so recorded exactly when its step is (docs/storage.md#transition-history).
import type { ResourceEvent } from '../../machines/resource.js';
import { limits } from '../config.js';
import type { ResourceStatus } from '../model.js';
import type { Databases } from './environment.js';
import type { StoredTransition } from './records.js';

export type { StoredTransition } from './records.js';

/** A machine event, or what the host does outside the machine: create a resource, end its lease on a stop. */
export type TransitionEvent = ResourceEvent['type'] | 'CREATED' | 'LEASE_ENDED';

/** What caused a commit, as the resource host knows it. */
export interface TransitionCause {
  event: TransitionEvent;
  /** ms since the epoch */
  at: number;
}

export interface Transition extends TransitionCause {
  /** null for the resource's creation */
  from: ResourceStatus | null;
  to: ResourceStatus;
}

const noState = '-';

export class TransitionHistory {
  constructor(private readonly dbs: Databases) {}

  /** The resource's last transitions, oldest first; empty for a resource never committed with a cause. */
  history(key: string): Transition[] {
    const transitions: Transition[] = [];
    for (const { value } of this.dbs.history.getRange({ start: [key, 0], end: [key, Number.MAX_SAFE_INTEGER] })) {
      transitions.push(parse(value));
    }
    return transitions;
  }

  /**
   * Inside the commit's write transaction: the transition that `version` of the resource made,
   * kept to the last `limits.resourceHistoryLength` per resource without reading anything back:
   * an entry is keyed by the version its commit wrote, and each commit removes the one that many
   * versions older. `consecutive`: the resource's versions count its commits one by one, so the entry that falls
   * out of the history is known without a read; otherwise (a cluster's log revisions) the
   * resource's entries are read and all but the newest are removed.
   */
  record(key: string, version: number, transition: Transition, consecutive: boolean): void {
    const { history } = this.dbs;
    history.put([key, version], `${transition.at} ${transition.event} ${transition.from ?? noState} ${transition.to}`);
    if (consecutive) {
      const expired = version - limits.resourceHistoryLength;
      if (expired > 0) history.remove([key, expired]);
      return;
    }
    const kept = [...history.getKeys({ start: [key, version], end: [key, 0], reverse: true, offset: limits.resourceHistoryLength })];
    for (const expired of kept) history.remove(expired);
  }
}

const transitionEvents: ReadonlySet<string> = new Set<TransitionEvent>([
  'CREATED',
  'LEASE_ENDED',
  'COLLECTED',
  'NOT_FOUND',
  'FAILED',
  'DEFERRED',
  'REFRESH_DUE',
  'RETRY_DUE',
  'RECHECK_DUE',
]);
const statuses: ReadonlySet<string> = new Set<ResourceStatus>(['pending', 'available', 'stale', 'unavailable', 'not_found']);
const isEvent = (text: string | undefined): text is TransitionEvent => text !== undefined && transitionEvents.has(text);
const isStatus = (text: string | undefined): text is ResourceStatus => text !== undefined && statuses.has(text);

/** Whether `value` is a cause as a cluster's log carries it (src/seams/resourceLog/resourceLogStream.ts). */
export function isTransitionCause(value: unknown): value is TransitionCause {
  if (typeof value !== 'object' || value === null || !('event' in value) || !('at' in value)) return false;
  const { event, at } = value;
  return typeof event === 'string' && isEvent(event) && typeof at === 'number' && Number.isFinite(at);
}

function parse(stored: StoredTransition): Transition {
  const [at, event, from, to] = stored.split(' ');
  if (!isEvent(event) || !isStatus(to) || (from !== noState && !isStatus(from))) throw new Error(`unreadable transition '${stored}'`);
  return { at: Number(at), event, from: isStatus(from) ? from : null, to };
}
