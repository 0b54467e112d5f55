// A server started by npm stops when npm goes away, or it would be left running with nobody to stop
// it; one started otherwise outlives its parent, as a daemon should (docs/operations.md#signals).
import { readFileSync } from 'node:fs';

/** Calls `onGone` once, when this process's parent changes; only when npm started it. */
export function stopWhenNpmGoesAway(onGone: () => void, everyMs: number): void {
  if (process.env.npm_lifecycle_event === undefined) return;
  const first = parentPid();
  // process.ppid is read once at start-up in Node 20; /proc has the current parent.
  if (first === undefined) return;
  const timer = setInterval(() => {
    if (parentPid() === first) return;
    clearInterval(timer);
    onGone();
  }, everyMs);
  timer.unref();
}

/** Field 4 of /proc/self/stat, after the parenthesised command name (which may hold spaces). */
function parentPid(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}
