// What must hold of the data directory after any crash, read with the service's own opener
// once the server is dead: accounts and tokens as provisioned, usage between what was
// answered and what was sent, and every resource whole (snapshot, view and due entry of one
// transaction, resourceStore.ts), its datapoint history agreeing with it (docs/history.md#what-is-recorded).
import { isDeepStrictEqual } from 'node:util';
import type { Database } from 'lmdb';
import { createResourceMachine, dueEventFor } from '../../machines/resource.js';
import { defaultPolicy, historyDefaults as defaultHistory } from '../../src/config.js';
import { parseResourceKey, resourceTypes, type ResourceStatus } from '../../src/model.js';
import { platformCodes } from '../../src/platforms/registry.js';
import { renderView } from '../../src/resources/view.js';
import type { AccountRecord, TokenRecord } from '../../src/store/accountStore.js';
import { openDatabases, type Databases } from '../../src/store/environment.js';
import type { StoredResource } from '../../src/store/resourceStore.js';
import { DatapointSeries, datapointGroups } from '../../src/store/datapointSeries.js';
import type { SettledResources, Tally } from './load.js';

export interface AuthBaseline {
  accounts: Array<[string, AccountRecord]>;
  tokens: Array<[string, TokenRecord]>;
  tokenDigests: Array<[string, string]>;
  authVersion: unknown;
}

export interface StoreReport {
  problems: string[];
  /** Account -> requests counted, over all months. */
  usage: Map<string, number>;
  /** Resource status -> how many resources are in it. */
  statuses: Map<string, number>;
}

const statuses: ReadonlySet<string> = new Set<ResourceStatus>(['pending', 'available', 'stale', 'unavailable', 'not_found']);
const machine = createResourceMachine(defaultPolicy);

const entries = <V>(db: Database<V, string>) => [...db.getRange()].map(({ key, value }) => [key, value] as [string, V]);

/** Opens the data directory as the service does, and closes it once `use` is done. */
export async function withDatabases<T>(dataDir: string, use: (dbs: Databases) => T | Promise<T>): Promise<T> {
  const dbs = openDatabases(dataDir);
  try {
    return await use(dbs);
  } finally {
    await dbs.root.close();
  }
}

export function readAuthBaseline(dbs: Databases): AuthBaseline {
  return {
    accounts: entries<AccountRecord>(dbs.accounts),
    tokens: entries<TokenRecord>(dbs.tokens),
    tokenDigests: entries<string>(dbs.tokenDigests),
    authVersion: dbs.meta.get('authVersion'),
  };
}

export function inspectStore(
  dbs: Databases,
  baseline: AuthBaseline,
  tallies: ReadonlyMap<string, Tally>,
  settled: SettledResources,
): StoreReport {
  const report: StoreReport = { problems: [], usage: new Map(), statuses: new Map() };
  checkAuth(dbs, baseline, report.problems);
  checkUsage(dbs, tallies, report);
  checkResources(dbs, settled, report);
  return report;
}

function checkAuth(dbs: Databases, baseline: AuthBaseline, problems: string[]): void {
  const now = readAuthBaseline(dbs);
  if (!isDeepStrictEqual(now.accounts, baseline.accounts)) problems.push(`accounts changed: ${JSON.stringify(now.accounts)}`);
  if (!isDeepStrictEqual(now.tokenDigests, baseline.tokenDigests)) problems.push('token digests changed');
  if (now.authVersion !== baseline.authVersion)
    problems.push(`authVersion ${String(now.authVersion)}, was ${String(baseline.authVersion)}`);
  // The server writes only a token's last-used time (authenticator.ts); everything else is the CLI's.
  const stripped = (tokens: AuthBaseline['tokens']) => tokens.map(([id, token]) => [id, { ...token, lastUsedAt: null }]);
  if (!isDeepStrictEqual(stripped(now.tokens), stripped(baseline.tokens))) problems.push(`tokens changed: ${JSON.stringify(now.tokens)}`);
  for (const [id, token] of now.tokens) {
    const used = token.lastUsedAt;
    if (used !== null && !(typeof used === 'string' && new Date(used).toISOString() === used && used >= token.createdAt)) {
      problems.push(`token ${id} has lastUsedAt ${JSON.stringify(used)}`);
    }
  }
}

function checkUsage(dbs: Databases, tallies: ReadonlyMap<string, Tally>, report: StoreReport): void {
  for (const { key, value } of dbs.usage.getRange()) {
    const [account, month] = key as [string, string];
    if (!tallies.has(account) || !/^\d{4}-\d{2}$/.test(month) || !Number.isInteger(value) || (value as number) < 0) {
      report.problems.push(`usage entry ${JSON.stringify(key)} = ${JSON.stringify(value)}`);
      continue;
    }
    report.usage.set(account, (report.usage.get(account) ?? 0) + (value as number));
  }
  for (const [account, tally] of tallies) {
    const used = report.usage.get(account) ?? 0;
    // At least every answered request (an answer spends a unit reserved durably before); at
    // most every request that reached the server and was not refused before counting, plus
    // the units reserved and unspent when servers were killed (docs/guarantees.md#quota-and-rate-across-threads).
    if (used < tally.counted) report.problems.push(`${account}: usage ${used} < ${tally.counted} answered with 200/422 (free requests)`);
    if (used > tally.sent - tally.refused + tally.leeway) {
      report.problems.push(
        `${account}: usage ${used} > ${tally.sent} sent - ${tally.refused} refused with 403 + ${tally.leeway} reservable (over-counted)`,
      );
    }
  }
}

function checkResources(dbs: Databases, settled: SettledResources, report: StoreReport): void {
  const { problems } = report;
  let resourceCount = 0;
  for (const { key, value } of dbs.resources.getRange()) {
    resourceCount += 1;
    const problem = checkResource(dbs, key as string, value as StoredResource);
    if (problem) problems.push(`resource ${String(key)}: ${problem}`);
    else report.statuses.set((value as StoredResource).value, (report.statuses.get((value as StoredResource).value) ?? 0) + 1);
  }
  const viewCount = dbs.views.getCount();
  if (viewCount !== resourceCount) problems.push(`${viewCount} views for ${resourceCount} resources`);
  let dueCount = 0;
  for (const { key } of dbs.due.getRange()) {
    dueCount += 1;
    const [dueAt, resourceKey] = key as [number, string];
    const stored = dbs.resources.get(resourceKey) as StoredResource | undefined;
    if (stored?.context.nextDueAt !== dueAt) problems.push(`due entry ${JSON.stringify(key)} has no resource due then`);
  }
  if (dueCount !== resourceCount) problems.push(`${dueCount} due entries for ${resourceCount} resources`);
  // Once an answer showed a resource settled, that state was committed: a crash cannot undo it.
  for (const [key, collectedAt] of settled) {
    const stored = dbs.resources.get(key) as StoredResource | undefined;
    if (!stored || stored.value === 'pending') {
      problems.push(`resource ${key} was answered settled but is ${stored ? 'pending' : 'missing'} after the crash`);
      continue;
    }
    if (collectedAt !== null && !hasPointBy(dbs, key, Date.parse(collectedAt))) {
      problems.push(`resource ${key} was answered with data collected at ${collectedAt}, not in its history`);
    }
    const kept = stored.context.metrics && Object.values(stored.context.metrics)[0]?.collected_at;
    if (collectedAt !== null && !(typeof kept === 'string' && kept >= collectedAt)) {
      problems.push(`resource ${key} was answered with data collected at ${collectedAt}, now ${String(kept)}`);
    }
  }
}

function hasPointBy(dbs: Databases, key: string, at: number): boolean {
  return new DatapointSeries(dbs, defaultHistory).read(key, 0, at).some((series) => series.points.length > 0);
}

/** Why the stored resource is not whole, or undefined when it is. */
function checkResource(dbs: Databases, key: string, stored: StoredResource): string | undefined {
  const ref = parseResourceKey(key);
  if (
    !(platformCodes as readonly string[]).includes(ref.platform) ||
    !(resourceTypes as readonly string[]).includes(ref.type) ||
    !ref.identifier
  ) {
    return 'key is not platform/type/identifier';
  }
  if (!statuses.has(stored?.value)) return `state ${JSON.stringify(stored?.value)}`;
  const { context } = stored;
  if (!Number.isFinite(context?.nextDueAt) || !Number.isInteger(context.failures) || !Array.isArray(context.history)) {
    return `context ${JSON.stringify(context)}`;
  }
  try {
    const resolved = machine.resolveState(stored);
    if (resolved.value !== stored.value) return `machine resolves it to ${JSON.stringify(resolved.value)}`;
  } catch (error) {
    return `not a snapshot of the resource machine: ${String(error)}`;
  }
  const view = renderView(stored.value, context);
  const storedView = dbs.views.get(key);
  if (!isDeepStrictEqual(storedView, [view.entryEnd, view.refreshAfter])) {
    return `view ${JSON.stringify(storedView)} does not render the snapshot ${JSON.stringify(stored)}`;
  }
  if (dbs.due.get([context.nextDueAt, key]) !== dueEventFor[stored.value])
    return `no ${dueEventFor[stored.value]} due at ${context.nextDueAt}`;
  return checkSeries(dbs, key, stored);
}

/**
 * The history holds no point newer than the snapshot's last collection (no point without its
 * commit), and each datapoint's value in force at its collection is the snapshot's (no commit
 * without its point).
 */
function checkSeries(dbs: Databases, key: string, stored: StoredResource): string | undefined {
  const lastSuccessAt = stored.context.lastSuccessAt ?? Number.NEGATIVE_INFINITY;
  const recorded = new DatapointSeries(dbs, defaultHistory).read(key, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  for (const series of recorded) {
    const newest = series.points.at(-1) ?? series.before;
    if (newest && newest.at > lastSuccessAt)
      return `history point of ${series.name} at ${newest.at}, after its last collection ${lastSuccessAt}`;
  }
  for (const group of datapointGroups) {
    for (const [name, datapoint] of Object.entries(stored.context[group] ?? {})) {
      const inForce = recorded.find((series) => series.group === group && series.name === name)?.before;
      if (inForce?.value !== datapoint.value) {
        return `${group}.${name} is ${JSON.stringify(datapoint.value)} but its history says ${JSON.stringify(inForce?.value)}`;
      }
    }
  }
  return undefined;
}
