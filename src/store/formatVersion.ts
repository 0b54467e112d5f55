// The data directory's format (docs/storage.md#format-version): recorded when the directory
// is created, checked on every open, so that no version of datapoints reads a layout it does
// not know; a directory of format 1 is upgraded in place (docs/storage.md#upgrading-a-data-directory).
import type { RootDatabase } from 'lmdb';
import { DataDirectoryError } from './dataDirectoryError.js';
import { entryCount } from './entryCount.js';
import type { MetaDatabase } from './records.js';
import { upgradeFormatOneToTwo, upgradeFormatThreeToFour, upgradeFormatTwoToThree } from './formatUpgrade.js';

/**
 * 1: the layout before versions were recorded (unversioned snapshots).
 * 2: snapshots carry the version of their last commit (useVersions).
 * 3: history points packed by series and UTC month (seriesMonths), not one entry each (series).
 * 4: a commit's changed values written as one loose entry (seriesPoints), packed into their
 *    months by the roll-up.
 */
export const currentFormat = 4;

/** The databases whose entries show that a directory holds data. */
const dataDatabases = ['resources', 'views', 'due', 'accounts', 'tokens', 'usage'];

/**
 * Brings the directory to the current format before any database is opened by its layout:
 * records it in a directory that holds nothing yet (when `create`), upgrades formats 1 to 3, and
 * refuses a newer format with a DataDirectoryError.
 */
export function prepareFormat(root: RootDatabase, meta: MetaDatabase, dataDir: string, create: boolean): void {
  const found = recordedFormat(root, meta);
  if (found === currentFormat) return;
  if (found === undefined) {
    // Checked again inside the transaction: another process may be creating the directory too.
    if (create) {
      root.transactionSync(() => {
        if (recordedFormat(root, meta) === undefined) void meta.put('formatVersion', currentFormat);
      });
    }
    return;
  }
  if (found === 1) upgradeFormatOneToTwo(root, meta, () => recordedFormat(root, meta) === 1);
  if (found <= 2) upgradeFormatTwoToThree(root, meta, () => recordedFormat(root, meta) === 2);
  if (found <= 3) {
    upgradeFormatThreeToFour(root, meta, () => recordedFormat(root, meta) === 3);
    return;
  }
  // Formats are only ever recorded as 2 or, by a later datapoints, higher.
  throw new DataDirectoryError(
    `data directory ${dataDir} has format ${found}, this datapoints reads format ${currentFormat}; it was written by a newer datapoints: upgrade, or use another --data directory`,
  );
}

/** The recorded format; 1 for a directory that holds data but no format (it predates them); undefined for an empty one. */
function recordedFormat(root: RootDatabase, meta: MetaDatabase): number | undefined {
  const recorded = meta.get('formatVersion');
  if (recorded !== undefined) return recorded;
  return dataDatabases.some((name) => entryCount(root.openDB({ name })) > 0) ? 1 : undefined;
}
