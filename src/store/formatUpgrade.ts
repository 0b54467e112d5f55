// The upgrades of an older data directory, each in the one write transaction that also records its new
// format, so a process killed midway leaves the directory as it was (docs/storage.md#upgrading-a-data-directory).
import type { Database, Key, RootDatabase } from 'lmdb';
import { startOfMonth } from './utcPeriods.js';
import type { MetaDatabase, SeriesKey, SeriesMonth, SeriesValue } from './records.js';

/** Entries copied per read of the old snapshots; the whole upgrade is still one transaction. */
const chunkSize = 1_000;
/** The version of every upgraded snapshot: format 1 kept no count of its commits. */
const upgradedVersion = 1;
/** Where the snapshots' shared record structures are kept (environment.ts). */
const structuresKey = Symbol.for('structures');

/**
 * Rewrites every entry of `resources` (the snapshots and their shared record structures) with a
 * version, and records format 2, in one synchronous write transaction, unless another process
 * upgraded the directory first. Accounts, tokens, usage, views and the due index are the same
 * in both formats and are left as they are.
 *
 * The bytes are copied, not decoded: lmdb-js stores a versioned value as 8 bytes of version
 * followed by the value's usual encoding, so a snapshot keeps the record structures it was
 * encoded with, and the structures entry itself gets its 8 bytes like any other. Keys keep
 * lmdb's default encoding: the database's key order is that encoding's, and a handle with
 * another key encoding would search it in another order.
 */
export function upgradeFormatOneToTwo(root: RootDatabase, meta: MetaDatabase, isFormatOne: () => boolean): void {
  const unversioned = root.openDB<Buffer, Key>({ name: 'resources', encoding: 'binary' });
  const versioned = root.openDB<Buffer, Key>({ name: 'resources', encoding: 'binary', useVersions: true });
  root.transactionSync(() => {
    // Checked again inside the transaction: another process may have upgraded it meanwhile.
    if (!isFormatOne()) return;
    const structures = unversioned.getBinary(structuresKey);
    if (structures) void versioned.put(structuresKey, Buffer.from(structures), upgradedVersion);
    // A range of string keys leaves out the structures' symbol key, copied above.
    let after: Key | undefined;
    for (;;) {
      // A chunk is read to its end before it is written: no cursor stays open across the writes.
      const chunk = readChunk(unversioned, after);
      for (const [key, value] of chunk) void versioned.put(key, value, upgradedVersion);
      const last = chunk.at(-1);
      if (!last || chunk.length < chunkSize) break;
      after = last[0];
    }
    void meta.put('formatVersion', 2);
  });
  // The read transaction of this turn began before the upgrade (the format was read in it) and
  // would go on showing the unversioned snapshots, which a versioned read cannot decode.
  root.resetReadTxn();
}

function readChunk(db: Database<Buffer, Key>, after: Key | undefined): [Key, Buffer][] {
  const chunk: [Key, Buffer][] = [];
  const range = after === undefined ? db.getRange({ limit: chunkSize }) : db.getRange({ start: after, limit: chunkSize + 1 });
  for (const { key, value } of range) {
    if (key === after) continue;
    // A copy: the bytes read may lie in memory that the writes which follow reuse.
    chunk.push([key, Buffer.from(value)]);
  }
  return chunk;
}

/**
 * Format 2 kept one entry per history point (`series`: [resource, group, datapoint, at] ->
 * value); format 3 keeps one entry per series and UTC month with its points packed
 * (`seriesMonths`, docs/history.md#layout). Every point is appended to its month, the old
 * database dropped and format 3 recorded in one synchronous write transaction, unless another
 * process upgraded the directory first.
 */
export function upgradeFormatTwoToThree(root: RootDatabase, meta: MetaDatabase, isFormatTwo: () => boolean): void {
  const points = root.openDB<SeriesValue, SeriesKey>({ name: 'series', keyEncoding: 'ordered-binary' });
  const months = root.openDB<SeriesMonth, SeriesKey>({ name: 'seriesMonths', keyEncoding: 'ordered-binary' });
  root.transactionSync(() => {
    if (!isFormatTwo()) return;
    let month: { key: SeriesKey; points: SeriesMonth } | undefined;
    let after: SeriesKey | undefined;
    for (;;) {
      const range = after === undefined ? { limit: chunkSize } : { start: after, limit: chunkSize + 1 };
      // The range starts at the last point of the chunk before: it was appended then.
      const chunk = [...points.getRange(range)].filter(({ key }) => !after || key.some((part, index) => part !== after![index]));
      for (const { key, value } of chunk) {
        const [resource, group, name, at] = key;
        const start = startOfMonth(at);
        if (!month || month.key[0] !== resource || month.key[1] !== group || month.key[2] !== name || month.key[3] !== start) {
          if (month) void months.put(month.key, month.points);
          month = { key: [resource, group, name, start], points: [[], []] };
        }
        // Keys sort by time within a series: the points arrive oldest first.
        month.points[0].push(at - start);
        month.points[1].push(value);
      }
      const last = chunk.at(-1);
      if (!last || chunk.length < chunkSize) break;
      after = last.key;
    }
    if (month) void months.put(month.key, month.points);
    points.dropSync();
    void meta.put('formatVersion', 3);
  });
  root.resetReadTxn();
}

/**
 * Format 4 adds the loose entries of the commits' points (`seriesPoints`, docs/history.md#layout),
 * which a format-3 directory has none of: its months are format 4's as they are. Recording format
 * 4 is the whole upgrade, so that an older datapoints, which would not read the loose points,
 * refuses the directory.
 */
export function upgradeFormatThreeToFour(root: RootDatabase, meta: MetaDatabase, isFormatThree: () => boolean): void {
  root.transactionSync(() => {
    if (isFormatThree()) void meta.put('formatVersion', 4);
  });
  // As after the other upgrades: this turn's read transaction began before the format was recorded.
  root.resetReadTxn();
}
