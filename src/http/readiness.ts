// What /readyz asks before it says the service can answer searches
// (docs/operations-endpoints.md#get-readyz). Each check lists its problems, none when fine;
// wiring passes the list, so a cluster node adds "connected to the cluster" as one more check.
import type { Health } from '../health.js';
import type { ReadinessProblem } from '../api/responseSchemas.js';

export type { ReadinessProblem };

export type ReadinessCheck = () => readonly ReadinessProblem[];

/** The problems background components reported and have not cleared. */
export function healthCheck(health: Health): ReadinessCheck {
  return () =>
    health.problems().map(({ component, message, since, count }) => ({
      component,
      message,
      since: new Date(since).toISOString(),
      count,
    }));
}

/** The LMDB environment answers: its statistics can be read, which a closed one refuses. */
export function storageCheck(storage: { getStats(): unknown }): ReadinessCheck {
  return () => {
    try {
      storage.getStats();
      return [];
    } catch (error) {
      return [{ component: 'storage', message: `LMDB environment not usable: ${error instanceof Error ? error.message : String(error)}` }];
    }
  };
}
