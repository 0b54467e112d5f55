// What the console reads besides what every thread's store holds, as a small interface the
// wiring fills (docs/dashboard.md, "Operator console"): the platforms' live status, which only
// the resource thread knows.

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
