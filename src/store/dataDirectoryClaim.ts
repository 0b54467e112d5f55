// One server per data directory (docs/storage.md#one-server-per-data-directory): a claim in the
// meta database naming the holder's pid and start time.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { DataDirectoryError } from './dataDirectoryError.js';
import { CommitRefused } from './storageSpace.js';
import type { Databases, ServerClaim } from './environment.js';

export interface DataDirectoryClaim {
  /** Gives the directory up, if this process still holds it. */
  release(): Promise<void>;
}

/**
 * Claims the directory for this process, or throws a DataDirectoryError naming the live holder.
 * Read and written in one LMDB write transaction, which every process takes in turn, so two
 * starters never both find it free. A dead holder's claim fails the liveness check (a kill -9
 * never blocks the next start); a claim copied with the data names another directory.
 */
export async function claimDataDirectory(dbs: Databases): Promise<DataDirectoryClaim> {
  const { dev, ino } = statSync(dbs.dataDir);
  const own: ServerClaim = { pid: process.pid, started: startOf(process.pid) ?? null, directory: `${dev}:${ino}` };
  const holder = await dbs.root.transaction(() => {
    const current = dbs.meta.get('serverClaim');
    if (current && current.directory === own.directory && isAlive(current)) return current;
    void dbs.meta.put('serverClaim', own);
    return undefined;
  });
  if (holder) throw new DataDirectoryError(`data directory ${dbs.dataDir} is in use by pid ${holder.pid}`);
  return {
    async release() {
      await dbs.root
        .transaction(() => {
          const current = dbs.meta.get('serverClaim');
          if (current?.pid === own.pid && current.started === own.started) void dbs.meta.remove('serverClaim');
        })
        .catch((error: unknown) => {
          // On a full store the claim stays, and holds nothing once this process has ended (docs/storage.md#a-full-disk).
          if (!(error instanceof CommitRefused)) throw error;
        });
    },
  };
}

function isAlive(claim: ServerClaim): boolean {
  const started = startOf(claim.pid);
  if (started === undefined) return false;
  return claim.started === null || started === null || started === claim.started;
}

const procfs = existsSync('/proc/self/stat');

/**
 * The start time of a live process; undefined when there is no live process of that pid, null
 * when it lives but the system does not say since when (no /proc).
 */
function startOf(pid: number): string | null | undefined {
  if (!procfs) return signalable(pid) ? null : undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // proc(5): "pid (comm) state ... starttime" where comm may hold spaces and parentheses;
  // after the last ')' come the state (field 3) and, 19 fields on, the start time (field 22).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // A process killed with -9 stays a zombie until its parent reaps it: it holds nothing.
  if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
  return fields[19] ?? null;
}

function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}
