// A resource's transitions as its snapshot keeps them (the machine's bounded `history`, each
// entry the event and the state it led to): the state before each is the one the previous
// entry led to; before the oldest kept, unknown unless the history is whole (then pending).
import { defaultPolicy } from '../config.js';
import type { StoredResource } from '../store/resourceStore.js';
import type { Transition } from './operatorData.js';

export function transitionsOf(stored: StoredResource | undefined): Transition[] {
  if (!stored) return [];
  const { history } = stored.context;
  const whole = history.length < defaultPolicy.historyLength;
  return history.map((entry, index) => ({
    at: entry.at,
    event: entry.event,
    from: index > 0 ? history[index - 1]!.to : whole ? 'pending' : null,
    to: entry.to,
    reason: entry.reason,
  }));
}
