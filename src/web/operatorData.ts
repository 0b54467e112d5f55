// What the console and the usage page read besides accounts and tokens, as small interfaces
// the wiring fills (docs/dashboard.md, "Operator console"): daily usage counts, account
// suspension, the platforms' live status, and a resource's snapshot and transitions.
import type { ResourceStatus } from '../model.js';
import type { StoredResource } from '../store/resourceStore.js';

export interface DailyCount {
  /** 'YYYY-MM-DD' (UTC) */
  day: string;
  requests: number;
}

export interface DailyUsage {
  /** Requests of `account` on each of the `days` days up to the day of `now`, oldest first, every day present. */
  daily(account: string, days: number, now: number): DailyCount[];
}

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
  dailyUsage?: DailyUsage | undefined;
  platforms?: PlatformStatusSource | undefined;
  resources: ResourceInspection;
}
