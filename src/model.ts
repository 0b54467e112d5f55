// The vocabulary shared by the API, the machines, the streams and the collectors. A leaf: it
// imports nothing, so every layer may use it without pulling in another.

/**
 * Every platform's code, in the order of the one list of platforms (src/platforms/definitions.ts),
 * which must hold exactly these (docs/adding-a-platform.md).
 */
export const platformCodes = [
  'bluesky',
  'facebook',
  'github',
  'instagram',
  'lemmy',
  'linkedin',
  'mastodon',
  'peertube',
  'reddit',
  'threads',
  'tiktok',
  'twitch',
  'x',
  'youtube',
] as const;
export type PlatformCode = (typeof platformCodes)[number];

export const resourceTypes = ['account', 'organization', 'post', 'community'] as const;
export type ResourceType = (typeof resourceTypes)[number];

/** Datapoint names of docs/api.md#a-13; callers key on these, never on `semantic`. */
export const metricNames = ['followers', 'following', 'posts', 'views', 'likes', 'reposts', 'replies'] as const;
export type MetricName = (typeof metricNames)[number];

/**
 * The datapoints an entry of each type carries, every one of them, a value or null
 * (docs/api.md#a-13, docs/api.md#a-14): a collector reports exactly these for its type.
 */
export const metricsOfType: { readonly [Type in ResourceType]: readonly MetricName[] } = {
  account: ['followers', 'following', 'posts'],
  organization: ['followers', 'following', 'posts'],
  post: ['views', 'likes', 'reposts', 'replies'],
  community: ['followers', 'posts'],
};

export type ResourceStatus = 'pending' | 'available' | 'stale' | 'unavailable' | 'not_found';

/** One datapoint as a collector reports it: `value: null` means the platform does not report it (docs/api.md#a-14). */
export interface ReportedDatapoint {
  value: number | boolean | null;
  semantic: string;
}

export interface ReportedDatapoints {
  metrics: Partial<Record<MetricName, ReportedDatapoint>>;
  attributes?: Record<string, ReportedDatapoint>;
}

/** A datapoint as the API returns it (docs/api.md#a-12). */
export interface Datapoint {
  value: number | boolean | null;
  status: 'available' | 'unavailable';
  collected_at: string;
  semantic: string;
}

/** The closed set of ways one collection can end (docs/api.md#a-26). */
export type CollectionOutcome =
  | { kind: 'found'; datapoints: ReportedDatapoints }
  | { kind: 'notFound' }
  | { kind: 'rateLimited'; retryAt: number }
  | { kind: 'failed'; reason: string }
  /** Not attempted: the platform is paused (its circuit breaker is open) until `until`. */
  | { kind: 'deferred'; until: number; reason: string };

export const found = (datapoints: ReportedDatapoints): CollectionOutcome => ({ kind: 'found', datapoints });
export const notFound: CollectionOutcome = { kind: 'notFound' };
export const rateLimited = (retryAt: number): CollectionOutcome => ({ kind: 'rateLimited', retryAt });
export const failed = (reason: string): CollectionOutcome => ({ kind: 'failed', reason });
export const deferred = (until: number, reason: string): CollectionOutcome => ({ kind: 'deferred', until, reason });

/** A platform's collector, as the collection pipeline calls it (docs/adding-a-platform.md). */
export interface Collector {
  /** How many resources one collect() call may carry (batching upstream lookups). */
  readonly maxBatch: number;
  /** One outcome per ref, in the same order. Must not throw: every failure is an outcome. */
  collect(refs: readonly ResourceRef[], signal: AbortSignal): Promise<CollectionOutcome[]>;
}

/** How hard a platform may be called: each collector call (a batch) counts once. */
export interface CallBudget {
  /** Collector calls (batches) in flight at once. */
  concurrency: number;
  /**
   * Collector calls per minute; Infinity for no spacing. A collector that makes several upstream
   * requests per call sizes this so that its worst case stays below the platform's documented limit.
   */
  perMinute: number;
}

/** A platform as the collection pipeline takes it: its collector and its budget. */
export interface CollectingPlatform {
  collector: Collector;
  /** Per upstream: the platform's, or on a federated platform each server's. */
  budget: CallBudget;
  /**
   * On a platform whose references name their hosts, the host of an identifier: each server is
   * an upstream of its own, with its own budget, pauses and breaker (docs/platforms.md#each-server-its-own-upstream).
   */
  hostOf?: ((identifier: string) => string) | undefined;
}

/** One resource's collection as the pipeline ends it (streams/collection.ts). */
export interface CollectionResult {
  key: string;
  outcome: CollectionOutcome;
}

/** A resource as the service tracks it: the identifier is already normalized (docs/api.md#a-8). */
export interface ResourceRef {
  platform: PlatformCode;
  type: ResourceType;
  identifier: string;
}

/** The LMDB key of a resource; identifiers never contain '/' (docs/api.md#a-5 rejects it). */
export const resourceKey = (ref: ResourceRef): string => `${ref.platform}/${ref.type}/${ref.identifier}`;

export function parseResourceKey(key: string): ResourceRef {
  const first = key.indexOf('/');
  const second = key.indexOf('/', first + 1);
  return {
    platform: key.slice(0, first) as PlatformCode,
    type: key.slice(first + 1, second) as ResourceType,
    identifier: key.slice(second + 1),
  };
}
