// Pure steps of the resource machine, exactly what XState's transition() and initialTransition()
// compute, through one reused inert actor scope instead of a new actor per call
// (docs/dependencies.md#xstate).
import { createActor, type AnyActorScope, type ExecutableActionObject } from 'xstate';
import type { ResourceEvent, ResourceMachine } from './resource.js';

export type ResourceSnapshot = ReturnType<ResourceMachine['resolveState']>;
export type Step = [ResourceSnapshot, ExecutableActionObject[]];

export interface ResourceStepper {
  /**
   * The machine snapshot of a stored resource: the one a step of this stepper made, when
   * `stored.context` is that step's own context object, otherwise resolved afresh.
   */
  resolve(stored: { value: ResourceSnapshot['value']; context: ResourceSnapshot['context'] }): ResourceSnapshot;
  initial(createdAt: number): Step;
  next(snapshot: ResourceSnapshot, event: ResourceEvent): Step;
}

/**
 * Building an actor per call was three quarters of every step, and the host steps resources
 * thousands of times a second. The scope follows XState's public ActorLogic contract; actions
 * are collected for the caller, never executed here.
 */
export function stepperFor(machine: ResourceMachine): ResourceStepper {
  // Never started: it only lends the scope an identity, as in XState's own transition().
  const self = createActor(machine, { input: { createdAt: 0 } });
  let actions: ExecutableActionObject[] = [];
  const scope: AnyActorScope = {
    self,
    id: '',
    sessionId: '',
    logger: () => undefined,
    defer: () => undefined,
    emit: () => undefined,
    system: self.system,
    stopChild: () => undefined,
    actionExecutor: (action) => {
      actions.push(action);
    },
  };
  // Resolving a stored resource rebuilds XState's tables of active state nodes, as costly as a
  // step: the resource's next step reuses the snapshot its last step made instead. Contexts are
  // never mutated (every step assigns a new one), so one is the key of the snapshot holding it
  // (docs/dependencies.md#xstate).
  const made = new WeakMap<object, ResourceSnapshot>();
  const collect = (step: () => ResourceSnapshot): Step => {
    actions = [];
    const snapshot = step();
    made.set(snapshot.context, snapshot);
    return [snapshot, actions];
  };
  return {
    resolve: (stored) => {
      const snapshot = made.get(stored.context);
      return snapshot && snapshot.value === stored.value ? snapshot : machine.resolveState(stored);
    },
    initial: (createdAt) => collect(() => machine.getInitialSnapshot(scope, { createdAt })),
    next: (snapshot, event) => collect(() => machine.transition(snapshot, event, scope)),
  };
}
