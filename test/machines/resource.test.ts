// The resource machine on its own: pure transitions, every state x every event, timing rules.
import t from 'tap';
import { getAdjacencyMap } from '@xstate/graph';
import { initialTransition, transition } from 'xstate';
import { createResourceMachine, dueEventFor, retryDelay, type ResourceEvent, type ResourcePolicy } from '../../machines/resource.js';
import { eventForOutcome } from '../../machines/outcomeEvent.js';
import { stepperFor } from '../../machines/step.js';
import type { ResourceStatus } from '../../src/model.js';

const policy: ResourcePolicy = {
  freshForMs: 6 * 3_600_000,
  retryBaseMs: 60_000,
  retryCapMs: 6 * 3_600_000,
  recheckAfterMs: 24 * 3_600_000,
  leaseMs: 60_000,
  historyLength: 3,
};
const machine = createResourceMachine(policy);
const createdAt = Date.UTC(2026, 10, 23);
const datapoints = { metrics: { followers: { value: 10, semantic: 'followers' } } };
// Due events are sent far in the future here so their guards pass; guards are tested below.
const late = createdAt + 365 * 86_400_000;

const events: ResourceEvent[] = [
  { type: 'COLLECTED', at: createdAt + 1, datapoints },
  { type: 'NOT_FOUND', at: createdAt + 1 },
  { type: 'FAILED', at: createdAt + 1, reason: 'HTTP 503', jitter: 0.5 },
  { type: 'DEFERRED', at: createdAt + 1, until: createdAt + 30_000 },
  { type: 'REFRESH_DUE', at: late },
  { type: 'RETRY_DUE', at: late },
  { type: 'RECHECK_DUE', at: late },
];

type Expected = [target: ResourceStatus, collects: boolean];
/** docs/api.md#lifecycle, written out: what each event does in each state. */
const expected: Record<ResourceStatus, Record<ResourceEvent['type'], Expected>> = {
  pending: {
    COLLECTED: ['available', false],
    NOT_FOUND: ['not_found', false],
    FAILED: ['unavailable', false],
    DEFERRED: ['pending', false],
    REFRESH_DUE: ['pending', false],
    RETRY_DUE: ['pending', true],
    RECHECK_DUE: ['pending', false],
  },
  available: {
    COLLECTED: ['available', false],
    NOT_FOUND: ['not_found', false],
    FAILED: ['stale', false],
    DEFERRED: ['available', false],
    REFRESH_DUE: ['available', true],
    RETRY_DUE: ['available', false],
    RECHECK_DUE: ['available', false],
  },
  stale: {
    COLLECTED: ['available', false],
    NOT_FOUND: ['not_found', false],
    FAILED: ['stale', false],
    DEFERRED: ['stale', false],
    REFRESH_DUE: ['stale', false],
    RETRY_DUE: ['stale', true],
    RECHECK_DUE: ['stale', false],
  },
  unavailable: {
    COLLECTED: ['available', false],
    NOT_FOUND: ['not_found', false],
    FAILED: ['unavailable', false],
    DEFERRED: ['unavailable', false],
    REFRESH_DUE: ['unavailable', false],
    RETRY_DUE: ['unavailable', true],
    RECHECK_DUE: ['unavailable', false],
  },
  not_found: {
    COLLECTED: ['available', false],
    NOT_FOUND: ['not_found', false],
    FAILED: ['not_found', false],
    DEFERRED: ['not_found', false],
    REFRESH_DUE: ['not_found', false],
    RETRY_DUE: ['not_found', false],
    RECHECK_DUE: ['not_found', true],
  },
};

const collects = (actions: ReadonlyArray<{ type: string }>) => actions.some((action) => action.type === 'requestCollection');

t.test('resource machine - a new resource is pending and asks for collection at once (docs/api.md#a-21)', async (t) => {
  const [snapshot, actions] = initialTransition(machine, { createdAt });
  t.equal(snapshot.value, 'pending');
  t.ok(collects(actions));
  t.equal(snapshot.context.nextDueAt, createdAt + policy.leaseMs);
  t.same(snapshot.context.history, []);
});

t.test('resource machine - every state x every event, from the machine graph', async (t) => {
  const graph = getAdjacencyMap(machine, {
    input: { createdAt },
    events,
    serializeState: (snapshot) => JSON.stringify(snapshot.value),
  });
  const reached = new Map(Object.values(graph).map(({ state }) => [state.value as ResourceStatus, state]));
  t.same([...reached.keys()].sort(), Object.keys(expected).sort(), 'every state is reachable');
  for (const [status, snapshot] of reached) {
    for (const event of events) {
      const [next, actions] = transition(machine, snapshot, event);
      t.same([next.value, collects(actions)], expected[status][event.type], `${status} + ${event.type}`);
    }
  }
});

t.test('resource stepper - the same snapshots and actions as XState transition(), every state x every event', async (t) => {
  const stepper = stepperFor(machine);
  const [initial, initialActions] = initialTransition(machine, { createdAt });
  const [stepped, steppedActions] = stepper.initial(createdAt);
  t.same(
    [stepped.value, stepped.context, steppedActions.map((action) => action.type)],
    [initial.value, initial.context, initialActions.map((action) => action.type)],
  );
  const graph = getAdjacencyMap(machine, { input: { createdAt }, events, serializeState: (snapshot) => JSON.stringify(snapshot.value) });
  for (const { state } of Object.values(graph)) {
    for (const event of events) {
      const [expectedNext, expectedActions] = transition(machine, state, event);
      const [next, actions] = stepper.next(state, event);
      t.same(
        [next.value, next.context, actions.map((action) => action.type)],
        [expectedNext.value, expectedNext.context, expectedActions.map((action) => action.type)],
        `${String(state.value)} + ${event.type}`,
      );
    }
  }
});

t.test('resource stepper - a stored resource resolves to the snapshot its last step made, and afresh otherwise', async (t) => {
  const stepper = stepperFor(machine);
  const [pending] = stepper.initial(createdAt);
  const stored = { value: pending.value, context: pending.context };
  t.equal(stepper.resolve(stored), pending, 'the step made it: its snapshot');
  const copied = { value: pending.value, context: { ...pending.context } };
  const resolved = stepper.resolve(copied);
  t.not(resolved, pending, 'a context read from disk: resolved afresh');
  t.same([resolved.value, resolved.context], [pending.value, pending.context]);
  const relabelled = { value: 'unavailable' as const, context: pending.context };
  t.equal(stepper.resolve(relabelled).value, 'unavailable', 'another state over the same context: resolved afresh');
});

t.test('resource machine - collected datapoints are stamped and refreshed after the freshness window', async (t) => {
  const [pending] = initialTransition(machine, { createdAt });
  const at = createdAt + 1234;
  const [available] = transition(machine, pending, {
    type: 'COLLECTED',
    at,
    datapoints: {
      metrics: { views: { value: null, semantic: 'views' }, likes: { value: 7, semantic: 'stars' } },
      attributes: { verified: { value: true, semantic: 'verified' } },
    },
  });
  const collectedAt = new Date(at).toISOString();
  t.same(available.context.metrics, {
    views: { value: null, status: 'unavailable', collected_at: collectedAt, semantic: 'views' },
    likes: { value: 7, status: 'available', collected_at: collectedAt, semantic: 'stars' },
  });
  t.same(available.context.attributes, { verified: { value: true, status: 'available', collected_at: collectedAt, semantic: 'verified' } });
  t.equal(available.context.lastSuccessAt, at);
  t.equal(available.context.nextDueAt, at + policy.freshForMs);
  t.same(available.context.history, [{ at, event: 'COLLECTED', to: 'available' }]);
});

t.test('resource machine - due events before their time change nothing', async (t) => {
  const [pending] = initialTransition(machine, { createdAt });
  const [available] = transition(machine, pending, { type: 'COLLECTED', at: createdAt, datapoints });
  const early = createdAt + policy.freshForMs - 1;
  const [same, actions] = transition(machine, available, { type: 'REFRESH_DUE', at: early });
  t.equal(same, available);
  t.notOk(collects(actions));
  const due = createdAt + policy.freshForMs;
  const [leased, leaseActions] = transition(machine, available, { type: 'REFRESH_DUE', at: due });
  t.ok(collects(leaseActions));
  t.equal(leased.context.nextDueAt, due + policy.leaseMs, 'a requested collection leases the resource');
  const [again, againActions] = transition(machine, leased, { type: 'REFRESH_DUE', at: due + 1 });
  t.equal(again, leased, 'a second due event inside the lease is ignored');
  t.notOk(collects(againActions));
});

t.test('resource machine - a failed refresh keeps the old datapoints as stale (docs/api.md#a-23)', async (t) => {
  const [pending] = initialTransition(machine, { createdAt });
  const [available] = transition(machine, pending, { type: 'COLLECTED', at: createdAt, datapoints });
  const failedAt = createdAt + policy.freshForMs;
  const [stale] = transition(machine, available, { type: 'FAILED', at: failedAt, reason: 'HTTP 503', jitter: 0 });
  t.equal(stale.value, 'stale');
  t.same(stale.context.metrics, available.context.metrics);
  t.equal(stale.context.failures, 1);
  t.equal(stale.context.lastFailure, 'HTTP 503');
  t.equal(stale.context.nextDueAt, failedAt + policy.retryBaseMs / 2);
  const [recovered] = transition(machine, stale, { type: 'COLLECTED', at: failedAt + 1, datapoints });
  t.equal(recovered.value, 'available');
  t.equal(recovered.context.failures, 0);
  t.equal(recovered.context.lastFailure, null);
});

t.test('resource machine - not found clears datapoints and rests for the recheck interval (docs/api.md#a-25)', async (t) => {
  const [pending] = initialTransition(machine, { createdAt });
  const [available] = transition(machine, pending, { type: 'COLLECTED', at: createdAt, datapoints });
  const [gone] = transition(machine, available, { type: 'NOT_FOUND', at: createdAt + 5 });
  t.equal(gone.value, 'not_found');
  t.equal(gone.context.metrics, null);
  t.equal(gone.context.nextDueAt, createdAt + 5 + policy.recheckAfterMs);
  const [failedRecheck] = transition(machine, gone, { type: 'FAILED', at: createdAt + 10, reason: 'timeout', jitter: 1 });
  t.equal(failedRecheck.value, 'not_found', 'a failed recheck proves nothing (docs/api.md#a-27)');
  t.equal(failedRecheck.context.nextDueAt, createdAt + 10 + policy.retryBaseMs);
});

t.test('resource machine - backoff doubles per failure, is capped, and honours the platform retry time', async (t) => {
  t.equal(retryDelay(policy, 1, 0), 30_000);
  t.equal(retryDelay(policy, 1, 1), 60_000);
  t.equal(retryDelay(policy, 3, 0), 120_000);
  t.equal(retryDelay(policy, 3, 1), 240_000);
  t.equal(retryDelay(policy, 40, 1), policy.retryCapMs);
  t.equal(retryDelay(policy, 40, 0), policy.retryCapMs / 2);

  let [snapshot] = initialTransition(machine, { createdAt });
  const delays: number[] = [];
  for (let failure = 1; failure <= 4; failure++) {
    const at = createdAt + failure * 1_000_000_000;
    [snapshot] = transition(machine, snapshot, { type: 'FAILED', at, reason: 'HTTP 500', jitter: 1 });
    delays.push(snapshot.context.nextDueAt - at);
  }
  t.same(delays, [60_000, 120_000, 240_000, 480_000]);
  const retryAt = createdAt + 10 * 86_400_000;
  [snapshot] = transition(machine, snapshot, { type: 'FAILED', at: createdAt, reason: 'rate limited', jitter: 0, retryAt });
  t.equal(snapshot.context.nextDueAt, retryAt, 'never earlier than the platform asked');
});

t.test('resource machine - the history of transitions is bounded', async (t) => {
  let [snapshot] = initialTransition(machine, { createdAt });
  for (let i = 1; i <= 5; i++)
    [snapshot] = transition(machine, snapshot, { type: 'FAILED', at: createdAt + i, reason: `failure ${i}`, jitter: 0 });
  t.same(
    snapshot.context.history.map((entry) => entry.reason),
    ['failure 3', 'failure 4', 'failure 5'],
  );
  t.same(snapshot.context.history[2], { at: createdAt + 5, event: 'FAILED', to: 'unavailable', reason: 'failure 5' });
});

t.test('resource machine - due event per resting state', async (t) => {
  t.same(dueEventFor, {
    pending: 'RETRY_DUE',
    available: 'REFRESH_DUE',
    stale: 'RETRY_DUE',
    unavailable: 'RETRY_DUE',
    not_found: 'RECHECK_DUE',
  });
});

t.test('outcome events - each collection outcome becomes its machine event', async (t) => {
  const at = createdAt;
  t.same(eventForOutcome({ kind: 'found', datapoints }, at, 0.3), { type: 'COLLECTED', at, datapoints });
  t.same(eventForOutcome({ kind: 'notFound' }, at, 0.3), { type: 'NOT_FOUND', at });
  t.same(eventForOutcome({ kind: 'failed', reason: 'HTTP 503' }, at, 0.3), { type: 'FAILED', at, reason: 'HTTP 503', jitter: 0.3 });
  t.same(eventForOutcome({ kind: 'rateLimited', retryAt: at + 5 }, at, 0.3), {
    type: 'FAILED',
    at,
    reason: 'rate limited by the platform',
    jitter: 0.3,
    retryAt: at + 5,
  });
});

t.test('outcome events - a deferral (breaker refused the call) becomes DEFERRED, not a failure', async (t) => {
  t.same(eventForOutcome({ kind: 'deferred', until: createdAt + 9, reason: 'paused' }, createdAt, 0.3), {
    type: 'DEFERRED',
    at: createdAt,
    until: createdAt + 9,
  });
});

t.test('resource machine - a deferral is no attempt: no failure counted, no backoff, due at the breaker trial', async (t) => {
  const [pending] = initialTransition(machine, { createdAt });
  const [unavailable] = transition(machine, pending, { type: 'FAILED', at: createdAt + 1, reason: 'HTTP 503', jitter: 0 });
  t.equal(unavailable.context.failures, 1);
  const historyBefore = unavailable.context.history;
  let snapshot = unavailable;
  // Many refusals in a row while the platform is paused: the resource does not drift into a long backoff.
  for (let i = 1; i <= 10; i++) {
    [snapshot] = transition(machine, snapshot, { type: 'DEFERRED', at: createdAt + i * 1_000, until: createdAt + i * 1_000 + 30_000 });
  }
  t.equal(snapshot.value, 'unavailable');
  t.equal(snapshot.context.failures, 1);
  t.equal(snapshot.context.lastFailure, 'HTTP 503');
  t.same(snapshot.context.history, historyBefore);
  t.equal(snapshot.context.nextDueAt, createdAt + 10_000 + 30_000, "due again at the breaker's next trial");
  // Once the platform answers again, the next failure backs off from where it was (2nd failure), not 12th.
  const [failedAgain] = transition(machine, snapshot, { type: 'FAILED', at: createdAt + 50_000, reason: 'HTTP 503', jitter: 0 });
  t.equal(failedAgain.context.failures, 2);
  t.equal(failedAgain.context.nextDueAt, createdAt + 50_000 + retryDelay(policy, 2, 0));
  // A deferral whose time has already passed leaves the resource due now.
  const [late] = transition(machine, snapshot, { type: 'DEFERRED', at: createdAt + 90_000, until: createdAt + 80_000 });
  t.equal(late.context.nextDueAt, createdAt + 90_000);
});
