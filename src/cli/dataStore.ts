// The data directory the commands work on: `--data` wins over DATAPOINTS_DATA, which wins over
// ./data (docs/operations.md#data-directory). Read-only commands never create a store.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { serveDefaults } from '../config.js';
import { DataDirectoryError } from '../store/dataDirectoryError.js';
import { DamagedDataFile } from '../store/dataFileCheck.js';
import { CommitRefused } from '../store/storageSpace.js';
import { openDatabases, type Databases } from '../store/environment.js';
import { setting } from './flags.js';
import type { Setting } from '../operatorInput.js';
import { CommandFailure, errorCode, UsageError } from '../usageError.js';

export const dataFlag = { data: { type: 'string' } } as const;

export function dataDirSetting(flagValue: string | undefined): Setting {
  return setting(flagValue, 'data', 'DATAPOINTS_DATA') ?? { text: serveDefaults.dataDir, source: '--data' };
}

/** The file lmdb keeps the environment in (src/store/environment.ts names it). */
const storeFile = 'datapoints.mdb';

/**
 * Opens the store in `dir`. `mode: 'existing'` refuses a directory without one, so that a
 * mistyped --data on a read-only command creates nothing.
 */
export function openDataStore(dir: Setting, mode: 'existing' | 'create'): Databases {
  const path = dir.text;
  // Judged here rather than left to the store's refusal: a --data naming a file is a bad flag
  // (exit 2), named after where it came from (--data or DATAPOINTS_DATA).
  const kind = pathKind(path);
  if (kind === 'file') throw new UsageError(`invalid ${dir.source} '${path}': it is a file, not a directory`);
  if (kind === 'under-file') throw new UsageError(`invalid ${dir.source} '${path}': part of the path is a file, not a directory`);
  if (mode === 'existing' && !existsSync(join(path, storeFile))) {
    throw new UsageError(`invalid ${dir.source} '${path}': no data store there (set --data or DATAPOINTS_DATA to the server's directory)`);
  }
  try {
    // create: false as well, so that a store removed since the check above is not recreated.
    return openDatabases(path, { create: mode === 'create' });
  } catch (error) {
    if (error instanceof DataDirectoryError) throw error;
    // docs/operations.md#damaged-data-file: nothing here repairs it; a backup restores it.
    if (error instanceof DamagedDataFile)
      throw new CommandFailure(`cannot open the data store in '${path}': ${error.message}; ${restoreAdvice(path)}`);
    const code = errorCode(error);
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
      throw new UsageError(`invalid ${dir.source} '${path}': cannot write there (${code})`);
    }
    throw new CommandFailure(`cannot open the data store in '${path}': ${firstLine(error)}`);
  }
}

const restoreAdvice = (path: string) =>
  `restore it from a copy made by 'datapoints backup': stop the server, then move the copy's datapoints.mdb into '${path}' or point --data at the copy`;

/** Runs `work` on the store and closes it, whatever happens. */
export async function withDataStore<T>(dir: Setting, mode: 'existing' | 'create', work: (dbs: Databases) => T | Promise<T>): Promise<T> {
  const dbs = openDataStore(dir, mode);
  try {
    return await work(dbs);
  } catch (error) {
    // docs/operations.md#a-full-disk: the commit was refused whole, so nothing changed.
    if (error instanceof CommitRefused)
      throw new CommandFailure(
        `cannot write the data store in '${dir.text}': ${error.reason}; nothing was changed: free space there and run the command again`,
      );
    throw error;
  } finally {
    await dbs.root.close();
  }
}

function pathKind(path: string): 'directory' | 'file' | 'absent' | 'under-file' {
  try {
    return statSync(path).isDirectory() ? 'directory' : 'file';
  } catch (error) {
    // ENOTDIR: a file stands where one of the path's parents should be.
    return errorCode(error) === 'ENOTDIR' ? 'under-file' : 'absent';
  }
}

export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}
