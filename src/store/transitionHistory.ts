// The last transitions of each resource: which event moved it from which state to which, and
// when (docs/storage.md, "Transition history"). Written inside the resource's commit, so a
// transition is recorded exactly when its step is, and kept to the last
// `limits.resourceHistoryLength` per resource without reading anything back: an entry is keyed
// by the version its commit wrote, and each commit removes the one that many versions older.
import type { ResourceEvent } from '../../machines/resource.js';
import { limits } from '../config.js';
import type { ResourceStatus } from '../model.js';
import type { Databases } from './environment.js';

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

/**
 * A transition as stored: `at event from to`, one line of UTF-8 (`from` is `-` for a creation).
 * Measured on the commit path, a plain string cost half the CPU of the same fields as a
 * msgpack array (docs/storage.md, "Transition history"); none of the fields holds a space.
 */
export type StoredTransition = string;

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

  /** Inside the commit's write transaction: the transition that `version` of the resource made. */
  record(key: string, version: number, transition: Transition): void {
    const { history } = this.dbs;
    history.put([key, version], `${transition.at} ${transition.event} ${transition.from ?? noState} ${transition.to}`);
    const expired = version - limits.resourceHistoryLength;
    if (expired > 0) history.remove([key, expired]);
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

function parse(stored: StoredTransition): Transition {
  const [at, event, from, to] = stored.split(' ');
  if (!isEvent(event) || !isStatus(to) || (from !== noState && !isStatus(from))) throw new Error(`unreadable transition '${stored}'`);
  return { at: Number(at), event, from: isStatus(from) ? from : null, to };
}
