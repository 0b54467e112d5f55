// The lifecycle of one tracked resource (docs/api.md#lifecycle). The machine is pure: it never
// starts timers or calls out. Time arrives on every event (`at`), randomness as `jitter`,
// and "when to look again" is kept in `context.nextDueAt` for the due index to act on.
import { assign, setup } from 'xstate';
import type { Datapoint, ReportedDatapoint, ReportedDatapoints, ResourceStatus } from '../src/model.js';

export interface ResourcePolicy {
  /** Age after which an available resource is refreshed (docs/api.md#a-22). */
  freshForMs: number;
  /** First retry delay of stale/unavailable resources; doubles per failure (docs/api.md#a-24). */
  retryBaseMs: number;
  retryCapMs: number;
  /** How long a not_found resource rests before it is checked again (docs/api.md#a-25). */
  recheckAfterMs: number;
  /** How long a requested collection may take before the due index asks again (crash recovery). */
  leaseMs: number;
  historyLength: number;
}

export interface HistoryEntry {
  at: number;
  event: 'COLLECTED' | 'NOT_FOUND' | 'FAILED';
  to: ResourceStatus;
  reason?: string;
}

export interface ResourceContext {
  metrics: Record<string, Datapoint> | null;
  attributes: Record<string, Datapoint> | null;
  lastSuccessAt: number | null;
  failures: number;
  lastFailure: string | null;
  nextDueAt: number;
  history: HistoryEntry[];
}

export type ResourceEvent =
  | { type: 'COLLECTED'; at: number; datapoints: ReportedDatapoints }
  | { type: 'NOT_FOUND'; at: number }
  | { type: 'FAILED'; at: number; reason: string; jitter: number; retryAt?: number }
  /** The collection was not attempted (the platform is paused) and may be tried at `until`. */
  | { type: 'DEFERRED'; at: number; until: number }
  | { type: 'REFRESH_DUE'; at: number }
  | { type: 'RETRY_DUE'; at: number }
  | { type: 'RECHECK_DUE'; at: number };

export type DueEventType = 'REFRESH_DUE' | 'RETRY_DUE' | 'RECHECK_DUE';

/** Which due event the scheduler sends a resource resting in each state. */
export const dueEventFor: Record<ResourceStatus, DueEventType> = {
  pending: 'RETRY_DUE',
  available: 'REFRESH_DUE',
  stale: 'RETRY_DUE',
  unavailable: 'RETRY_DUE',
  not_found: 'RECHECK_DUE',
};

/** Exponential backoff with "equal jitter": half the delay fixed, half random, capped. */
export function retryDelay(policy: ResourcePolicy, failures: number, jitter: number): number {
  const exponential = Math.min(policy.retryCapMs, policy.retryBaseMs * 2 ** Math.max(0, failures - 1));
  return exponential / 2 + (exponential / 2) * jitter;
}

function stamp(reported: Record<string, ReportedDatapoint> | undefined, at: number): Record<string, Datapoint> | null {
  if (!reported) return null;
  const collectedAt = new Date(at).toISOString();
  const stamped: Record<string, Datapoint> = {};
  for (const [name, point] of Object.entries(reported)) {
    stamped[name] = {
      value: point.value,
      status: point.value === null ? 'unavailable' : 'available',
      collected_at: collectedAt,
      semantic: point.semantic,
    };
  }
  return stamped;
}

function appendHistory(history: HistoryEntry[], entry: HistoryEntry, limit: number): HistoryEntry[] {
  const next = history.length >= limit ? history.slice(history.length - limit + 1) : history.slice();
  next.push(entry);
  return next;
}

export function createResourceMachine(policy: ResourcePolicy) {
  return setup({
    types: {
      context: {} as ResourceContext,
      events: {} as ResourceEvent,
      input: {} as { createdAt: number },
    },
    guards: {
      isDue: ({ context, event }) => event.at >= context.nextDueAt,
    },
    actions: {
      /** The host performs this effect: it puts the resource on the collection stream. */
      requestCollection: () => undefined,
      leaseCollection: assign({ nextDueAt: ({ event }) => event.at + policy.leaseMs }),
      recordCollected: assign(({ context, event }) => {
        if (event.type !== 'COLLECTED') return {};
        return {
          metrics: stamp(event.datapoints.metrics, event.at),
          attributes: stamp(event.datapoints.attributes, event.at),
          lastSuccessAt: event.at,
          failures: 0,
          lastFailure: null,
          nextDueAt: event.at + policy.freshForMs,
          history: appendHistory(context.history, { at: event.at, event: 'COLLECTED', to: 'available' }, policy.historyLength),
        };
      }),
      recordNotFound: assign(({ context, event }) => ({
        metrics: null,
        attributes: null,
        failures: 0,
        lastFailure: null,
        nextDueAt: event.at + policy.recheckAfterMs,
        history: appendHistory(context.history, { at: event.at, event: 'NOT_FOUND', to: 'not_found' }, policy.historyLength),
      })),
      /**
       * A call the platform's circuit breaker refused is no attempt: nothing about the
       * resource was learned, so neither its state nor its failure count nor its backoff
       * changes; it is simply due again when the platform may be called (docs/platforms.md#circuit-breaker).
       */
      postpone: assign({
        nextDueAt: ({ context, event }) => (event.type === 'DEFERRED' ? Math.max(event.at, event.until) : context.nextDueAt),
      }),
      recordFailure: assign(({ context, event }, params: { to: ResourceStatus }) => {
        if (event.type !== 'FAILED') return {};
        const failures = context.failures + 1;
        const backoffUntil = event.at + retryDelay(policy, failures, event.jitter);
        return {
          failures,
          lastFailure: event.reason,
          nextDueAt: Math.max(backoffUntil, event.retryAt ?? 0),
          history: appendHistory(
            context.history,
            { at: event.at, event: 'FAILED', to: params.to, reason: event.reason },
            policy.historyLength,
          ),
        };
      }),
    },
  }).createMachine({
    id: 'resource',
    initial: 'pending',
    // XState's pure transition() builds a throw-away actor without input on every call: the
    // initial context must not throw there (an exception per event cost a fifth of the CPU).
    context: ({ input }) => ({
      metrics: null,
      attributes: null,
      lastSuccessAt: null,
      failures: 0,
      lastFailure: null,
      nextDueAt: (input?.createdAt ?? 0) + policy.leaseMs,
      history: [],
    }),
    // Outcomes are accepted in every state: whatever the resource was, the platform's
    // latest answer decides what it is now.
    on: {
      COLLECTED: { target: '.available', actions: 'recordCollected' },
      NOT_FOUND: { target: '.not_found', actions: 'recordNotFound' },
      DEFERRED: { actions: 'postpone' },
    },
    states: {
      pending: {
        entry: 'requestCollection',
        on: {
          FAILED: { target: 'unavailable', actions: { type: 'recordFailure', params: { to: 'unavailable' } } },
          RETRY_DUE: { guard: 'isDue', actions: ['leaseCollection', 'requestCollection'] },
        },
      },
      available: {
        on: {
          FAILED: { target: 'stale', actions: { type: 'recordFailure', params: { to: 'stale' } } },
          REFRESH_DUE: { guard: 'isDue', actions: ['leaseCollection', 'requestCollection'] },
        },
      },
      stale: {
        on: {
          FAILED: { actions: { type: 'recordFailure', params: { to: 'stale' } } },
          RETRY_DUE: { guard: 'isDue', actions: ['leaseCollection', 'requestCollection'] },
        },
      },
      unavailable: {
        on: {
          FAILED: { actions: { type: 'recordFailure', params: { to: 'unavailable' } } },
          RETRY_DUE: { guard: 'isDue', actions: ['leaseCollection', 'requestCollection'] },
        },
      },
      not_found: {
        on: {
          // A failed recheck proves nothing either way (docs/api.md#a-27): the resource stays
          // not_found and the next recheck backs off like any retry.
          FAILED: { actions: { type: 'recordFailure', params: { to: 'not_found' } } },
          RECHECK_DUE: { guard: 'isDue', actions: ['leaseCollection', 'requestCollection'] },
        },
      },
    },
  });
}

export type ResourceMachine = ReturnType<typeof createResourceMachine>;
