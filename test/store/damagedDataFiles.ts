// Data files damaged the ways an operator meets them (docs/storage.md#damaged-data-file), each
// made from a real store, with what the check says of it. Shared by the checker's own test and
// the commands' (test/store/damagedDataFile.system.test.ts).
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabases } from '../../src/store/environment.js';

export const dataFile = (dataDir: string) => join(dataDir, 'datapoints.mdb');

/** A real store with a few accounts: more than LMDB's first pages, so that a cut loses some. */
export async function writeStore(dataDir: string): Promise<void> {
  const dbs = openDatabases(dataDir);
  for (let index = 0; index < 200; index++) {
    await dbs.accounts.put(`account-${index}`, {
      name: `account-${index}`,
      plan: 'free',
      quota: 500,
      rate: { limit: 60, windowMs: 60_000 },
      createdAt: new Date(0).toISOString(),
    });
  }
  await dbs.root.close();
}

const pageSize = 4096;
/** Where LMDB keeps the main tree's root in a meta page, and the transaction that wrote it (mdb.c, MDB_meta). */
const mainRootAt = 136;
const transactionAt = 152;

/** The main tree's root as the newer meta page names it. */
function mainRoot(file: Buffer): number {
  const [first, second] = [0, pageSize].map((page) => ({
    transaction: file.readBigUInt64LE(page + transactionAt),
    root: file.readBigUInt64LE(page + mainRootAt),
  }));
  return Number(second!.transaction > first!.transaction ? second!.root : first!.root);
}

export interface Damage {
  name: string;
  /** Damages the store's data file in place. */
  damage(file: string): void;
  /** What the check says, after `datapoints.mdb `. */
  says: string | RegExp;
}

export const damages: Damage[] = [
  {
    name: 'empty',
    damage: (file) => truncateSync(file, 0),
    says: 'is empty (0 bytes), and LMDB never leaves its data file empty once created: it was cut short or made by something else (only a missing file starts a new store)',
  },
  {
    name: 'cut inside its first page',
    damage: (file) => truncateSync(file, 100),
    says: 'is not an LMDB data file: its first meta page is cut short',
  },
  {
    name: 'cut before its second meta page ends',
    damage: (file) => truncateSync(file, 5000),
    says: `is cut short: 5000 bytes, less than LMDB's two meta pages of ${pageSize} bytes`,
  },
  {
    name: 'cut inside a page',
    damage: (file) => truncateSync(file, statSync(file).size - 100),
    says: new RegExp(`^is cut short: \\d+ bytes is not a whole number of ${pageSize}-byte pages$`),
  },
  {
    name: 'cut to half its pages',
    damage: (file) => truncateSync(file, Math.floor(statSync(file).size / pageSize / 2) * pageSize),
    says: /^is cut short: its meta page names root page \d+, but the file holds only pages 0 to \d+$/,
  },
  {
    name: 'its first pages zeroed',
    damage: (file) => writeFileSync(file, Buffer.alloc(2 * pageSize), { flag: 'r+' }),
    says: 'is not an LMDB data file: its first meta page is not marked as one',
  },
  {
    name: 'random bytes',
    damage: (file) => writeFileSync(file, randomBytes(statSync(file).size)),
    says: 'is not an LMDB data file: its first meta page is not marked as one',
  },
  {
    name: 'its root page zeroed',
    damage: (file) => {
      const bytes = readFileSync(file);
      const root = mainRoot(bytes);
      bytes.fill(0, root * pageSize, (root + 1) * pageSize);
      writeFileSync(file, bytes);
    },
    says: /^is damaged: page \d+, a root of its data, does not hold a tree page$/,
  },
];
