// The data directories the scenarios run on. Large ones are seeded once and kept in the
// temp directory under a fingerprint of the code that shapes their bytes, so a later
// invocation reuses them instead of spending most of its five minutes seeding.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededFreshForMs, seedDataDir, type SeedPlan } from './seed.js';

export interface DataSet {
  dir: string;
  token: string;
  /** Whether this invocation seeded it (and how long that took), or reused a cached copy. */
  seededMs: number | null;
}

const distRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Compiled files whose change alters what a seeded directory holds. */
const shapingFiles = [
  'bench/seed.js',
  'bench/benchAccount.js',
  'machines/resource.js',
  'src/resources/view.js',
  'src/store/resourceStore.js',
  'src/store/environment.js',
  // The format recorded at seeding: a set of an older format would be upgraded in place by
  // the server it starts, and the 1M start-up would time the upgrade (docs/storage.md#upgrading-a-data-directory).
  'src/store/formatVersion.js',
];

function fingerprint(plan: SeedPlan): string {
  const hash = createHash('sha256').update(JSON.stringify({ ...plan, due: plan.due && { from: plan.due.from } }));
  for (const file of shapingFiles) hash.update(readFileSync(join(distRoot, file)));
  return hash.digest('hex').slice(0, 16);
}

export const scratchDir = (label: string) => mkdtempSync(join(tmpdir(), `datapoints-bench-${label}-`));

/** A fresh directory seeded now (small sets). */
export async function freshDataSet(label: string, plan: SeedPlan): Promise<DataSet> {
  const dir = scratchDir(label);
  const started = performance.now();
  const token = await seedDataDir(dir, plan);
  return { dir, token, seededMs: performance.now() - started };
}

/** A seeded directory kept between invocations; `plan.due.at` is fixed when it is first seeded. */
export async function cachedDataSet(label: string, plan: SeedPlan): Promise<DataSet> {
  const cacheDir = join(tmpdir(), 'datapoints-bench');
  const dir = join(cacheDir, `${label}-${fingerprint(plan)}`);
  const tokenFile = join(dir, 'bench-token');
  if (existsSync(tokenFile) && Date.now() - statSync(tokenFile).mtimeMs < seededFreshForMs / 2)
    return { dir, token: readFileSync(tokenFile, 'utf8'), seededMs: null };
  // Sets seeded by older code are never read again; the 1M one alone takes over 1 GB.
  mkdirSync(cacheDir, { recursive: true });
  const olderSet = new RegExp(`^${label}-[0-9a-f]{16}$`);
  for (const entry of readdirSync(cacheDir)) {
    if (olderSet.test(entry)) rmSync(join(cacheDir, entry), { recursive: true, force: true });
  }
  mkdirSync(dir);
  const started = performance.now();
  const token = await seedDataDir(dir, plan);
  // Written last: a directory without it was interrupted while seeding and is seeded again.
  writeFileSync(tokenFile, token);
  return { dir, token, seededMs: performance.now() - started };
}

/** A throw-away copy of a cached set, for scenarios that use their data up. */
export function copyOf(set: DataSet, label: string): DataSet {
  const dir = scratchDir(label);
  cpSync(set.dir, dir, { recursive: true });
  return { ...set, dir };
}
