// Seeds a data directory directly through the store and the resource machine, never through
// HTTP: an account with a token, and as many tracked resources as a scenario needs. The same
// account and resources can be written to a cluster instead (clusterSeed.ts).
import { initialTransition, transition } from 'xstate';
import { createResourceMachine, dueEventFor, type ResourceContext } from '../machines/resource.js';
import { createAccount, issueToken, type AccountWrites } from '../src/access/provisioning.js';
import { defaultPolicy } from '../src/config.js';
import type { ResourceStatus } from '../src/model.js';
import { renderView } from '../src/resources/view.js';
import { AccountStore } from '../src/store/accountStore.js';
import { openDatabases, type Databases } from '../src/store/environment.js';
import { ResourceStore, type ResourceChange } from '../src/store/resourceStore.js';
import { benchAccount } from './benchAccount.js';

/**
 * The accounts the benchmark tracks, per platform it seeds: github, which allows one
 * resource per upstream call, and x, which looks up to 100 in one call. Each holds the
 * semantic its collector reports for `posts`.
 */
export const benchPlatforms = {
  github: { identifier: (index: number) => `bench-${index}`, postsSemantic: 'repositories' },
  x: { identifier: (index: number) => `bench_${index}`, postsSemantic: 'posts' },
} as const;
export type BenchPlatform = keyof typeof benchPlatforms;

/** The github account identifiers the search scenarios use: `bench-<n>`. */
export const benchIdentifier = benchPlatforms.github.identifier;

export interface SeedPlan {
  /** Accounts `0` ... `count - 1` of the platform (github by default), all available. */
  count: number;
  platform?: BenchPlatform;
  /**
   * Resources from index `from` on fall due at `at` (by default after the freshness window),
   * or spread evenly over `spreadMs` from `at` on.
   */
  due?: { from: number; at: number; spreadMs?: number };
}

/** Resources per write transaction: one sync commit per chunk instead of one per resource. */
const seedChunk = 20_000;

/**
 * Opens the data directory, provisions the bench account (limits no run reaches), seeds
 * the resources, closes, and returns the bearer token.
 */
export async function seedDataDir(dataDir: string, plan: SeedPlan): Promise<string> {
  const dbs = openDatabases(dataDir);
  try {
    const now = Date.now();
    const secret = await provisionBenchAccount(new AccountStore(dbs), now);
    seedResources(dbs, plan, now);
    return secret;
  } finally {
    await dbs.root.close();
  }
}

/** The bench account and one token, written to a data directory's accounts or the cluster's; returns the secret. */
export async function provisionBenchAccount(accounts: AccountWrites, now: number): Promise<string> {
  await createAccount(accounts, benchAccount.name, benchAccount.settings, now);
  return (await issueToken(accounts, benchAccount.name, now)).secret;
}

function seedResources(dbs: Databases, plan: SeedPlan, now: number): void {
  const store = new ResourceStore(dbs);
  const changes = seededChanges(plan, now);
  for (let start = 0; start < plan.count; start += seedChunk) {
    dbs.root.transactionSync(() => {
      for (let index = start; index < Math.min(plan.count, start + seedChunk); index++) {
        const { key, change } = changes.next().value!;
        store.stage(key, undefined, change);
      }
    });
  }
}

/** The plan's resources in index order, each as the change that creates it (no transition cause). */
export function* seededChanges(plan: SeedPlan, now: number): Generator<{ key: string; change: ResourceChange }, void> {
  const code = plan.platform ?? 'github';
  const platform = benchPlatforms[code];
  const template = availableTemplate(now, platform.postsSemantic);
  const status: ResourceStatus = 'available';
  for (let index = 0; index < plan.count; index++) {
    const context: ResourceContext = {
      ...template,
      metrics: {
        followers: { ...template.metrics!.followers!, value: 1_000 + (index % 97_331) },
        following: { ...template.metrics!.following!, value: index % 1_013 },
        posts: { ...template.metrics!.posts!, value: index % 211 },
      },
      nextDueAt: plan.due && index >= plan.due.from ? dueAt(plan.due, index, plan.count) : template.nextDueAt,
    };
    yield {
      key: `${code}/account/${platform.identifier(index)}`,
      change: { resource: { value: status, context }, view: renderView(status, context), event: dueEventFor[status] },
    };
  }
}

function dueAt(due: NonNullable<SeedPlan['due']>, index: number, count: number): number {
  return due.at + Math.floor(((index - due.from) * (due.spreadMs ?? 0)) / Math.max(1, count - due.from));
}

/**
 * Seeded resources stay fresh this long, so that a cached set never falls due by itself
 * while a scenario runs on it.
 */
export const seededFreshForMs = 30 * 24 * 3_600_000;

/** One real `available` account context, computed by the machine itself. */
function availableTemplate(now: number, postsSemantic: string): ResourceContext {
  const machine = createResourceMachine({ ...defaultPolicy, freshForMs: seededFreshForMs });
  const [pending] = initialTransition(machine, { createdAt: now });
  const [available] = transition(machine, pending, {
    type: 'COLLECTED',
    at: now,
    datapoints: {
      metrics: {
        followers: { value: 1_000, semantic: 'followers' },
        following: { value: 10, semantic: 'following' },
        posts: { value: 5, semantic: postsSemantic },
      },
    },
  });
  if (available.value !== 'available') throw new Error(`seed template ended ${String(available.value)}`);
  return available.context;
}
