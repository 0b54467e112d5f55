// The emulator's fault modes (docs/operations.md#emulator), apart from the emulator itself so that
// `datapoints emulator --help` lists them without loading emulator code.
// `slow` (answer after slowAnswerMs) extends docs/operations.md#emulator's list, for timeout tests.
export const faultModes = ['none', 'error', 'timeout', 'ratelimit', 'malformed', 'notfound', 'slow'] as const;
export type FaultMode = (typeof faultModes)[number];

/** What each fault mode does, as `datapoints emulator --help` and docs/operations.md#emulator say it. */
export const faultDescriptions: Record<FaultMode, string> = {
  none: 'back to normal',
  error: 'HTTP 503',
  timeout: 'no answer at all',
  ratelimit: "the platform's own rate-limit answer, with its retry header",
  malformed: 'a body that does not parse',
  notfound: 'answered as a name that does not exist',
  slow: 'answered after 3 seconds',
};
