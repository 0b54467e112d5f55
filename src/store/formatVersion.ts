// The data directory's format (docs/storage.md, "Format version"): recorded when the directory
// is created, checked on every open, so that no version of datapoints reads a layout it does
// not know.
import { DataDirectoryError } from './dataDirectoryError.js';
import { entryCount } from './entryCount.js';
import type { Databases } from './environment.js';

/**
 * 1: the layout before versions were recorded (unversioned snapshots).
 * 2: snapshots carry the version of their last commit (useVersions).
 */
export const currentFormat = 2;

/** Records the current format in a directory that holds nothing yet (when `create`), or refuses another format. */
export function checkFormat(dbs: Databases, create: boolean): void {
  const found = recordedFormat(dbs);
  if (found === currentFormat) return;
  if (found === undefined) {
    // Checked again inside the transaction: another process may be creating the directory too.
    if (create) {
      dbs.root.transactionSync(() => {
        if (recordedFormat(dbs) === undefined) void dbs.meta.put('formatVersion', currentFormat);
      });
    }
    return;
  }
  const what =
    found < currentFormat
      ? 'written by an older datapoints: start this one with a new --data directory, or keep using the older one'
      : 'written by a newer datapoints: upgrade, or use another --data directory';
  throw new DataDirectoryError(`data directory ${dbs.dataDir} has format ${found}, this datapoints reads format ${currentFormat}; it was ${what}`);
}

/** The recorded format; 1 for a directory that holds data but no format (it predates them); undefined for an empty one. */
function recordedFormat(dbs: Databases): number | undefined {
  const recorded = dbs.meta.get('formatVersion');
  if (recorded !== undefined) return recorded;
  const { resources, views, due, accounts, tokens, usage } = dbs;
  return [resources, views, due, accounts, tokens, usage].some((db) => entryCount(db) > 0) ? 1 : undefined;
}
