// The resource thread's Health as the edge threads hear it, so that /readyz on any edge answers
// for the whole server (docs/operations-endpoints.md#readiness-with-threads): the whole list
// when an edge joins, and again at each change the Health announces.
import type { Health } from '../health.js';
import { healthCheck, type ReadinessProblem } from '../http/readiness.js';
import type { ToEdge } from './edgeMessages.js';

export interface HealthListener {
  postMessage(message: ToEdge): void;
}

/** Tells `listener` the problems of `health` now, and again each time they change. */
export function publishHealth(health: Health, listener: HealthListener): void {
  const asProblems = healthCheck(health);
  const post = () => {
    const problems: ReadinessProblem[] = [...asProblems()];
    listener.postMessage({ type: 'health', problems });
  };
  post();
  health.onChanged(post);
}
