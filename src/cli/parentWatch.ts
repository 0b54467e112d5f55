// A server started by npm stops when npm goes away, or it would be left running with nobody to stop
// it; one started otherwise outlives its parent, as a daemon should (docs/operations.md#signals).
import { readFileSync } from 'node:fs';

/**
 * This process's parent when npm started it, else undefined. Read first thing, before the
 * server's start-up: npm killed meanwhile would otherwise be read as the parent (init), and its
 * going never seen.
 */
export function npmParent(): number | undefined {
  if (process.env.npm_lifecycle_event === undefined) return undefined;
  return parentPid();
}

/** Calls `onGone` once, when this process's parent is no longer `parent` (from npmParent; none: never). */
export function stopWhenParentGoes(parent: number | undefined, onGone: () => void, everyMs: number): void {
  // process.ppid is read once at start-up in Node 20; /proc has the current parent.
  if (parent === undefined) return;
  const timer = setInterval(() => {
    if (parentPid() === parent) return;
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
