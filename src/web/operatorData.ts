// What the console reads besides what every thread's store holds, as small interfaces the
// wiring fills (docs/dashboard.md, "Operator console"): the platforms' live status, and a
// resource's snapshot and transitions.
import type { ResourceStatus } from '../model.js';
import type { StoredResource } from '../store/resourceStore.js';

export interface PlatformStatus {
  platform: string;
  enabled: boolean;
  /** Why the platform is disabled (a missing credential), when it is. */
  disabledReason: string | undefined;
  breaker: string;
  /** Calls under way against the platform's budget, and the budget. */
  budgetInUse: number;
  budgetLimit: number;
  queueDepth: number;
  /** Collections finished in each of the last minutes, oldest first, by outcome. */
  perMinute: ReadonlyArray<Readonly<Record<string, number>>>;
  lastErrors: ReadonlyArray<{ at: string; message: string }>;
}

export interface PlatformStatusSource {
  platforms(): PlatformStatus[];
}

export interface Transition {
  at: number;
  event: string;
  from: ResourceStatus | null;
  to: ResourceStatus;
  reason?: string | undefined;
}

export interface ResourceInspection {
  snapshot(key: string): StoredResource | undefined;
  /** The resource's last transitions, oldest first. */
  transitions(key: string): Transition[];
}

export interface OperatorData {
  platforms?: PlatformStatusSource | undefined;
  resources: ResourceInspection;
}
