// A server started by npm (`npm start`, `npx datapoints serve`) stops when npm goes away
// (docs/operations.md#signals). npm runs a script through `sh -c`; when npm is killed, or
// the shell dies of the SIGTERM npm forwards to it, the server would be left running with
// nobody to stop it. A server started otherwise (systemd, nohup, a container) keeps running
// when its parent ends, as daemons are expected to.
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
