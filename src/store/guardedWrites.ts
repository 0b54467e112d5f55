// Every commit of the data store passes here (docs/storage.md#a-full-disk): one that the store
// refuses rejects with a CommitRefused, saying why, instead of lmdb-js's bare "Commit failed";
// no rejection of it is left unhandled (which would end the process); and the StorageSpace
// hears of each commit, made or refused.
import type { RootDatabase } from 'lmdb';
import { CommitRefused, type StorageSpace } from './storageSpace.js';

/**
 * A test's stand-in for the disk: consulted before each commit, it may refuse it with an error
 * (an ENOSPC), and nothing is written. Only tests pass one (OpenOptions.writeFault); no flag,
 * variable or setting of the service reaches it.
 */
export type WriteFault = () => Error | undefined;

/** Errors that say the disk refused the write: no room, no quota left, LMDB's map full, or a write cut short. */
const refusals: Record<string, string> = {
  ENOSPC: 'no space left on its disk (ENOSPC)',
  EDQUOT: 'the disk quota is used up (EDQUOT)',
  MDB_MAP_FULL: 'its map size is used up (MDB_MAP_FULL)',
  // LMDB's word for a write the file system cut short, which a full disk does (mdb.c, mdb_page_flush).
  EIO: 'a write was cut short (EIO), as on a full disk',
};
const codeNames: Record<number, string> = { 28: 'ENOSPC', 122: 'EDQUOT', [-30792]: 'MDB_MAP_FULL', 5: 'EIO' };

/** The write methods of lmdb-js that commit, or that a transaction's callback calls. */
const writeMethods = ['put', 'remove', 'ifVersion', 'ifNoExists'] as const;
type Guarded = 'transaction' | (typeof writeMethods)[number];

/**
 * Routes every commit of `root`, and of each database given to the function it returns, through
 * `space`. Writes made inside a transaction's callback are part of that transaction's commit and
 * pass untouched.
 */
export function guardWrites(root: RootDatabase, space: StorageSpace, fault?: WriteFault): (database: object) => void {
  // Above 0 while a guarded call runs, or a transaction's callback: writes made then belong to it.
  let depth = 0;
  const within = <T>(run: () => T): T => {
    depth++;
    try {
      return run();
    } finally {
      depth--;
    }
  };
  const guard = (target: Record<Guarded, unknown>, method: Guarded) => {
    const original = (target[method] as (...args: unknown[]) => unknown).bind(target);
    target[method] = (...args: unknown[]) => {
      if (depth > 0) return handled(original(...args));
      // While commits are refused, only the probe tries: the others are refused at once, as the
      // disk would refuse them, without a write or LMDB's line on stderr each.
      const { writable, reason } = space.current;
      if (!writable && !space.probing) return Promise.reject(new CommitRefused(reason ?? 'refused'));
      const begunAfter = space.refusalCount;
      const refusal = fault?.();
      const callbacks = args.map((arg) => (typeof arg === 'function' ? (...inner: unknown[]) => within(() => arg(...inner)) : arg));
      const written = refusal ? Promise.reject(refusal) : Promise.resolve(within(() => original(...callbacks)));
      return written.then(
        (value) => {
          space.wrote(begunAfter);
          return value;
        },
        async (error: unknown) => {
          const reason = await refusalReason(error);
          if (reason === undefined) throw error;
          const refused = new CommitRefused(reason);
          space.refused(refused);
          throw refused;
        },
      );
    };
  };
  const guardDatabase = (database: object) => {
    for (const method of writeMethods) guard(database as Record<Guarded, unknown>, method);
  };
  guard(root as unknown as Record<Guarded, unknown>, 'transaction');
  guardDatabase(root);
  quietCommitFailures();
  const close = root.close.bind(root);
  root.close = () => {
    const writable = space.current.writable;
    space.close();
    if (writable) return close();
    // After a refused commit lmdb-js's close waits for that commit's writes for ever; they were
    // refused, so there is nothing left to wait for (measured: a CLI command never ended).
    close().catch(() => undefined);
    return Promise.resolve();
  };
  return guardDatabase;
}

/**
 * Why the store refused a commit, or undefined for an error of another kind (a bug, a closed
 * store). lmdb-js rejects each write of a failed commit with "Commit failed" and keeps the cause
 * in a promise of its own (`commitError`), which it usually rejects at once, but not always: the
 * cause is waited for until the next turn of the event loop only.
 */
async function refusalReason(error: unknown): Promise<string | undefined> {
  if (isLmdbCommitFailure(error)) {
    const pending = error.commitError;
    const cause = await Promise.race([
      pending.then(
        () => undefined,
        (failure: unknown) => failure,
      ),
      new Promise((resolve) => setImmediate(resolve)),
    ]);
    return (cause !== undefined && knownRefusal(cause)) || 'a commit failed (lmdb did not say why)';
  }
  return knownRefusal(error);
}

function knownRefusal(error: unknown): string | undefined {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  const name = typeof code === 'number' ? codeNames[code] : code;
  return typeof name === 'string' ? refusals[name] : undefined;
}

/** A write inside a commit rejects with it, though its caller seldom awaits it: the commit's guarded call reports it. */
function handled(result: unknown): unknown {
  if (result instanceof Promise) result.catch(() => undefined);
  return result;
}

/**
 * lmdb-js's rejection of a failed commit's writes, whose cause is in its `commitError`, or a
 * refused commit nobody waited for: the store reports those itself.
 */
export function isUnheldCommitFailure(reason: unknown): boolean {
  return reason instanceof CommitRefused || isLmdbCommitFailure(reason);
}

function isLmdbCommitFailure(error: unknown): error is Error & { commitError: Promise<unknown> } {
  return error instanceof Error && 'commitError' in error && error.commitError instanceof Promise;
}

/**
 * With every failed commit lmdb-js also rejects a promise of its own batch that nobody holds
 * (the batch's start, write.js), and its commitError too when no write awaited it: unhandled,
 * they end the process. It also prints the cause with its stack (console.error), after LMDB's C
 * code printed a line of its own on stderr without ending it. The commit's guarded calls report
 * the failure, so, once per thread, those rejections are dropped and the stack becomes the end
 * of LMDB's line. Any other unhandled rejection ends the process as before, unless the process
 * has a handler of its own (`serve` has, and skips these too).
 */
let quieted = false;
function quietCommitFailures(): void {
  if (quieted) return;
  quieted = true;
  process.on('unhandledRejection', (reason) => {
    if (isUnheldCommitFailure(reason) || knownRefusal(reason) !== undefined || process.listenerCount('unhandledRejection') > 1) return;
    throw reason;
  });
  const print = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    const [only] = args;
    if (args.length === 1 && only instanceof Error && knownRefusal(only) !== undefined && only.stack?.includes('/lmdb/'))
      process.stderr.write('\n');
    else print(...args);
  };
}
