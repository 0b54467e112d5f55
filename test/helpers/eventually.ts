// The one way a test polls for something to happen (docs/testing.md#waiting-on-events); a module
// of its own so tests that start no service in process do not load one to use it.

export interface Polling {
  /** How long to keep polling; 5 s unless given. */
  timeoutMs?: number;
  /** Pause between probes; 50 ms unless given (shorter where a test measures how soon). */
  intervalMs?: number;
  /** Throws `${orFail}: still <last value> after N ms` past the deadline instead of returning the last value. */
  orFail?: string;
}

/**
 * Polls until `check` passes or the deadline ends; returns the last value seen (the caller's
 * assertion then names what was wrong), or throws past the deadline when `orFail` is given.
 * A number is the timeout.
 */
export async function eventually<T>(probe: () => Promise<T> | T, check: (value: T) => boolean, polling: number | Polling = {}): Promise<T> {
  const { timeoutMs = 5_000, intervalMs = 50, orFail } = typeof polling === 'number' ? { timeoutMs: polling } : polling;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (check(value)) return value;
    if (Date.now() > deadline) {
      if (orFail === undefined) return value;
      throw new Error(`${orFail}: still ${JSON.stringify(value)?.slice(0, 300)} after ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
