// The one place that knows the LMDB layout: which databases exist, how their keys are built
// and what their values are (docs/storage.md#layout).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { DueEventType } from '../../machines/resource.js';
import { DataDirectoryError } from './dataDirectoryError.js';
import { checkDataFile } from './dataFileCheck.js';
import { prepareFormat } from './formatVersion.js';
import { guardWrites, type WriteFault } from './guardedWrites.js';
import { StorageSpace, storageProbe } from './storageSpace.js';
import { limits } from '../config.js';
import type {
  AccountRecord,
  AttemptRecord,
  InviteRecord,
  LooseKey,
  LoosePoints,
  MetaDatabase,
  PasswordRecord,
  SeriesKey,
  SeriesMonth,
  SessionRecord,
  StoredResource,
  StoredTransition,
  TokenRecord,
} from './records.js';

export type { MetaDatabase, MetaRecords, ServerClaim, UpstreamKind } from './records.js';

/** A view as stored: [entryEnd, refreshAfter] (resourceStore.ts, ResourceView). */
export type StoredView = [entryEnd: string, refreshAfter: number];

export interface Databases {
  root: RootDatabase;
  /** The directory as the operator named it, for messages. */
  dataDir: string;
  /** resource key -> persisted machine snapshot ({ value, context }), versioned by its commits */
  resources: Database<StoredResource, string>;
  /** resource key -> pre-rendered result view, read by every search */
  views: Database<StoredView, string>;
  /** [dueAt, resource key] -> due event type; ordered by time for the scheduler */
  due: Database<DueEventType, [number, string]>;
  /** account name -> account record */
  accounts: Database<AccountRecord, string>;
  /** token id -> token record (digest only, never the secret) */
  tokens: Database<TokenRecord, string>;
  /** SHA-256 digest of a token -> token id */
  tokenDigests: Database<string, string>;
  /** [account name, 'YYYY-MM'] -> units reserved that month: requests counted, plus `reservedUnits` */
  usage: Database<number, [string, string]>;
  /** account name -> its dashboard password, as an scrypt hash (docs/dashboard.md#sign-in) */
  passwords: Database<PasswordRecord, string>;
  /** SHA-256 digest of an invite's secret -> the account it lets set a password */
  invites: Database<InviteRecord, string>;
  /** SHA-256 digest of a session id -> the session */
  sessions: Database<SessionRecord, string>;
  /** 'account:NAME' or 'address:IP' -> failed sign-ins in the current window */
  signinAttempts: Database<AttemptRecord, string>;
  /** [account name, 'YYYY-MM-DD'] -> requests counted that UTC day (dailyUsage.ts) */
  dailyUsage: Database<number, [string, string]>;
  /** [account name, 'YYYY-MM'] -> units the running server reserved and has not spent yet (reservedUnits.ts) */
  reservedUnits: Database<number, [string, string]>;
  /** [resource key, version] -> the transition that commit made (transitionHistory.ts) */
  history: Database<StoredTransition, [string, number]>;
  /** [resource key, 'metrics'|'attributes', datapoint, month start (ms)] -> the month's points, packed (datapointSeries.ts) */
  series: Database<SeriesMonth, SeriesKey>;
  /** [resource key, collected at] -> the values that commit changed, until the roll-up packs them into their months (datapointSeries.ts) */
  loosePoints: Database<LoosePoints, LooseKey>;
  meta: MetaDatabase;
  /** Whether commits find room on the disk (docs/storage.md#a-full-disk). */
  storage: StorageSpace;
}

export interface OpenOptions {
  /**
   * false: refuse, with a DataDirectoryError, a directory that holds no data file instead of
   * creating one (for commands that only read, where a mistyped --data must not leave an empty
   * store behind). true by default.
   */
  create?: boolean;
  /** Tests only: refuses commits as a full disk would (guardedWrites.ts). */
  writeFault?: WriteFault;
}

/**
 * Opens the data directory, creating it unless told not to, and brings it to the current
 * format (upgrading format 1). Throws a DataDirectoryError when the directory is missing
 * (create: false), is a file, or is of a newer format, and a DamagedDataFile when its data file
 * is not all there.
 */
export function openDatabases(dataDir: string, { create = true, writeFault }: OpenOptions = {}): Databases {
  // lmdb-js treats the path as the data file; the directory holds it and its lock file.
  const path = join(dataDir, 'datapoints.mdb');
  if (create) makeDirectory(dataDir);
  else if (!existsSync(path)) throw new DataDirectoryError(`no data directory at ${dataDir} (start the server once, or pass --data)`);
  // Before LMDB maps it: a damaged file would end the process with SIGBUS or SIGSEGV
  // (docs/storage.md#damaged-data-file). Throws a DamagedDataFile.
  checkDataFile(path);
  const root = open({
    path,
    // Large enough for millions of resources; LMDB grows the file lazily.
    mapSize: 64 * 1024 ** 3,
    maxDbs: 24,
    // Reads in the server must see writes made by the CLI process (docs/dependencies.md#lmdb-two-processes).
    cache: false,
  });
  // lmdb types a database by one value type; the meta database holds one type per key, which
  // MetaDatabase states key by key (every write goes through it, so every read is of that type).
  const meta: Database = root.openDB({ name: 'meta' });
  const storage = new StorageSpace(storageProbe(dataDir, meta, limits.storageProbe.minFreeBytes), limits.storageProbe.everyMs);
  // Before any write (the format's included), so that every commit is seen to succeed or fail for want of room.
  const guard = guardWrites(root, storage, writeFault);
  guard(meta);
  try {
    // Before the snapshots' database is opened with versions: a format-1 directory's snapshots
    // have none until the upgrade has run.
    prepareFormat(root, meta, dataDir, create);
  } catch (error) {
    // The refusal is what the caller needs to hear; a failure to close behind it is not.
    root.close().catch(() => undefined);
    throw error;
  }
  const dbs: Databases = {
    root,
    dataDir,
    // Snapshots share their msgpack record structures in the database instead of repeating
    // every key in every value: 387 -> 213 bytes a snapshot, decoding 5.6 -> 3.5 us, encoding
    // 10.5 -> 3.8 us. One process at a time writes snapshots (the server, or the bench seeder
    // before it starts), so no two processes race to add a structure.
    resources: root.openDB({ name: 'resources', sharedStructuresKey: Symbol.for('structures'), useVersions: true }),
    views: root.openDB({ name: 'views' }),
    due: root.openDB({ name: 'due', keyEncoding: 'ordered-binary' }),
    accounts: root.openDB({ name: 'accounts' }),
    tokens: root.openDB({ name: 'tokens' }),
    tokenDigests: root.openDB({ name: 'tokenDigests' }),
    usage: root.openDB({ name: 'usage', keyEncoding: 'ordered-binary' }),
    passwords: root.openDB({ name: 'passwords' }),
    invites: root.openDB({ name: 'invites' }),
    sessions: root.openDB({ name: 'sessions' }),
    signinAttempts: root.openDB({ name: 'signinAttempts' }),
    dailyUsage: root.openDB({ name: 'dailyUsage', keyEncoding: 'ordered-binary' }),
    // On disk the database keeps its first name, 'inHand'.
    reservedUnits: root.openDB({ name: 'inHand', keyEncoding: 'ordered-binary' }),
    history: root.openDB({ name: 'history', keyEncoding: 'ordered-binary', encoding: 'string' }),
    series: root.openDB({ name: 'seriesMonths', keyEncoding: 'ordered-binary' }),
    loosePoints: root.openDB({ name: 'seriesPoints', keyEncoding: 'ordered-binary' }),
    meta,
    storage,
  };
  // Every named database, whatever is added to the list above.
  for (const database of Object.values(dbs))
    if (database !== root && database !== meta && database instanceof Object && 'put' in database) guard(database);
  return dbs;
}

function makeDirectory(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    // EEXIST: the path is a file; ENOTDIR: a file stands where one of its parents should be.
    const code = error instanceof Error && 'code' in error ? error.code : undefined;
    if (code === 'EEXIST' || code === 'ENOTDIR')
      throw new DataDirectoryError(`data directory ${dataDir} is not a directory (it is a file, or lies under one): pass another --data`);
    throw error;
  }
}
