// Pure steps of the resource machine, exactly what XState's transition() and
// initialTransition() compute, but through one inert actor scope per machine instead of a
// new actor per call: building that actor was three quarters of every step, and the host
// steps resources thousands of times a second. The scope follows XState's public ActorLogic
// contract; actions are collected for the caller, never executed here.
import { createActor, type AnyActorScope, type ExecutableActionObject } from 'xstate';
import type { ResourceEvent, ResourceMachine } from './resource.js';

export type ResourceSnapshot = ReturnType<ResourceMachine['resolveState']>;
export type Step = [ResourceSnapshot, ExecutableActionObject[]];

export interface ResourceStepper {
  initial(createdAt: number): Step;
  next(snapshot: ResourceSnapshot, event: ResourceEvent): Step;
}

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
  const collect = (step: () => ResourceSnapshot): Step => {
    actions = [];
    const snapshot = step();
    return [snapshot, actions];
  };
  return {
    initial: (createdAt) => collect(() => machine.getInitialSnapshot(scope, { createdAt })),
    next: (snapshot, event) => collect(() => machine.transition(snapshot, event, scope)),
  };
}
