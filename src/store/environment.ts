// The one place that knows the LMDB layout: which databases exist and how their keys are built.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';

export interface Databases {
  root: RootDatabase;
  /** resource key -> persisted machine snapshot ({ value, context }), versioned by its commits */
  resources: Database;
  /** resource key -> pre-rendered result view, read by every search */
  views: Database;
  /** [dueAt, resource key] -> due event type; ordered by time for the scheduler */
  due: Database;
  /** account name -> account record */
  accounts: Database;
  /** token id -> token record (digest only, never the secret) */
  tokens: Database;
  /** SHA-256 digest of a token -> token id */
  tokenDigests: Database;
  /** [account name, 'YYYY-MM'] -> requests counted that month */
  usage: Database;
  /** small counters, e.g. the version of the auth data bumped by every CLI change */
  meta: Database;
}

export function openDatabases(dataDir: string): Databases {
  mkdirSync(dataDir, { recursive: true });
  const root = open({
    // lmdb-js treats the path as the data file; the directory holds it and its lock file.
    path: join(dataDir, 'datapoints.mdb'),
    // Large enough for millions of resources; LMDB grows the file lazily.
    mapSize: 64 * 1024 ** 3,
    maxDbs: 16,
    // Reads in the server must see writes made by the CLI process (FACTS: lmdb).
    cache: false,
  });
  const named = (name: string, options: { keyEncoding?: 'ordered-binary'; sharedStructuresKey?: symbol; useVersions?: boolean } = {}) =>
    root.openDB({ name, ...options });
  return {
    root,
    // Snapshots share their msgpack record structures in the database instead of repeating
    // every key in every value: 387 -> 213 bytes a snapshot, decoding 5.6 -> 3.5 us, encoding
    // 10.5 -> 3.8 us. One process at a time writes snapshots (the server, or the bench seeder
    // before it starts), so no two processes race to add a structure.
    resources: named('resources', { sharedStructuresKey: Symbol.for('structures'), useVersions: true }),
    views: named('views'),
    due: named('due', { keyEncoding: 'ordered-binary' }),
    accounts: named('accounts'),
    tokens: named('tokens'),
    tokenDigests: named('tokenDigests'),
    usage: named('usage', { keyEncoding: 'ordered-binary' }),
    meta: named('meta'),
  };
}
