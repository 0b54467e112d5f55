// Every numeric limit and default of the service, named in one place.
import type { ResourcePolicy } from '../machines/resource.js';

export const limits = {
  /** docs/api.md#a-47 */
  maxResourcesPerRequest: 10,
  /** Bodies above this are refused with 413 before they are buffered. */
  maxBodyBytes: 1024 * 1024,
  /**
   * How much of a body over maxBodyBytes is still read and thrown away before the 413, so a
   * client that sent it all at once reads the answer instead of a reset connection; beyond
   * this the 413 closes the connection (docs/http.md, "Request bodies").
   */
  maxDiscardedBodyBytes: 8 * 1024 * 1024,
  /** Identifiers echoed inside a 422 message are cut to this many characters. */
  maxEchoedIdentifier: 100,
  /** How often the server looks for accounts and tokens changed by the CLI (revocation within 1 s). */
  authRefreshMs: 250,
  /**
   * How often the scheduler looks for due work, and how much it takes at once: small, frequent
   * scans keep each burst of machine transitions short next to the searches on the same loop.
   */
  dueScanMs: 25,
  dueScanBatch: 250,
  /** Resources being transitioned or collected at once, beyond which due work waits in the index. */
  maxResourcesInWork: 2_000,
  /**
   * Resource work runs in slices of at most `sliceMs` per event-loop turn, so a search waits
   * behind one slice at most, and at most `maxRunning` steps are unfinished at once, so a
   * search's usage commit waits behind few resource commits (docs/architecture.md, "Pacing
   * background work").
   */
  resourceWork: { sliceMs: 1, maxRunning: 64 },
  /** How often the collection loop asks its queue for work besides the queue's own signal. */
  collectionPollMs: 25,
  /** A failed background pipeline (collection, due work) starts again after this pause. */
  pipelineRestartMs: 1_000,
  /**
   * On a stop, collections still out after this long are given back (docs/architecture.md,
   * "Stopping"); it ends before the shutdown grace so that giving back fits in it.
   */
  collectionStopGraceMs: 3_500,
  /**
   * A machine step whose conditional commit loses to another writer is computed again from the
   * winner's snapshot, at most this many times in all (docs/architecture.md, "Conditional commits").
   */
  commitAttempts: 5,
  /**
   * A token's last-used time is written back at most this often: each write is a commit beside
   * the searches, and a last use to the minute is enough to tell a token in use from a forgotten one.
   */
  tokenTouchIntervalMs: 60_000,
  /**
   * Views a resource store keeps decoded, per generation of its recent map (it holds one to two
   * generations): the warm set of a busy service, at a few hundred bytes a view.
   */
  viewCacheGeneration: 50_000,
  /** How long a browser may cache a CORS preflight answer (docs/http.md, "CORS"). */
  corsMaxAgeSeconds: 600,
  /** Allowed origins whose answer headers are kept built (with `--cors '*'` origins are unbounded). */
  maxCorsOriginsCached: 256,
  /** Graceful shutdown must finish within 5 s (docs/operations.md#signals); we leave margin. */
  shutdownGraceMs: 4_000,
  /**
   * Accounts one server can admit for in a month (src/access/accountTable.ts): a slot each,
   * ~150 bytes a slot. A request of an account beyond this is answered 503.
   */
  accountSlots: 16_384,
  /**
   * After a stop's owed answers are written, an edge thread keeps answering keep-alive clients
   * 503 with Connection: close this long before it ends, so they see an answer, not a reset.
   */
  keepAliveLingerMs: 300,
  /** How often an edge thread posts the answers it counted to the metrics (docs/operations-endpoints.md, "Metrics with threads"). */
  edgeMetricsPostMs: 1_000,
  /** `serve --threads` at most: each edge thread holds its own LMDB handle and caches. */
  maxEdgeThreads: 64,
  /**
   * Quota reservations (docs/guarantees.md, "Quota and rate across threads"). An account
   * reserves blocks of its monthly quota on disk before spending them: as many units as it
   * spent in the last `horizonMs` (or as many requests as are waiting), never leaving more
   * than `maxBlock` reserved and unspent. That is the most a kill -9 can count for requests
   * never made, per account and server. A request that waits for a reservation longer than
   * `waitMs` is answered 500.
   */
  quotaReservation: { maxBlock: 256, horizonMs: 200, waitMs: 10_000 },
  /**
   * Retry-After of a counted request answered 503 because its count could not be recorded
   * (docs/api.md#a-39): about the time a cluster node takes to reach NATS again.
   */
  countRetryAfterSeconds: 2,
} as const;

export interface RatePolicy {
  limit: number;
  windowMs: number;
}

export interface PlanLimits {
  /** Requests per calendar month (UTC), or null for none. */
  quota: number | null;
  rate: RatePolicy;
}

/** docs/api.md#a-51 */
export const plans = {
  free: { quota: 500, rate: { limit: 60, windowMs: 60_000 } },
  paid: { quota: null, rate: { limit: 3_000, windowMs: 60_000 } },
} satisfies Record<string, PlanLimits>;
export type PlanName = keyof typeof plans;

export const defaultPolicy: ResourcePolicy = {
  freshForMs: 6 * 3_600_000,
  retryBaseMs: 60_000,
  retryCapMs: 6 * 3_600_000,
  recheckAfterMs: 24 * 3_600_000,
  leaseMs: 60_000,
  historyLength: 10,
};

export const upstreamLimits = {
  /** Public profile pages run to a few hundred KB; an upstream body far beyond that is not an answer. */
  maxBodyBytes: 8 * 1024 * 1024,
  /** How long a platform that refuses us as rate-limited without saying for how long is left alone. */
  defaultPauseMs: 60_000,
  /** Against the emulator no platform budget applies: it exists to be driven as hard as we can. */
  emulatorBudget: { concurrency: 64, perMinute: Number.POSITIVE_INFINITY },
} as const;

export const collectionDefaults = {
  /** A collector call that takes longer is abandoned and counted as a failure. */
  timeoutMs: 10_000,
  /** Requests gathered into one upstream batch call wait at most this long. */
  batchWindowMs: 10,
  /** Per-platform circuit breaker (docs/architecture.md#collection-path): 5 failed calls in a row pause a platform for 30 s, then one trial. */
  breaker: { failureThreshold: 5, cooldownMs: 30_000, maxCooldownMs: 10 * 60_000 },
} as const;

export const serveDefaults = {
  port: 8080,
  host: '0.0.0.0',
  dataDir: './data',
  upstream: 'real',
} as const;

/**
 * The values the command line accepts for durations (docs/operations.md, "Flags"): below the
 * minimums a failing resource or a token bucket would hammer the platforms or the store
 * (a retry base of 0 made 193 upstream calls in 5 s for one resource).
 */
export const flagBounds = {
  freshForMs: { min: 1_000, max: 30 * 86_400_000 },
  retryBaseMs: { min: 1_000, max: defaultPolicy.retryCapMs },
  rateWindowMs: { min: 1_000, max: 31 * 86_400_000 },
  /** `datapoints resources list` prints at most this many resources unless told otherwise. */
  resourcesListed: { default: 50, max: 10_000 },
} as const;

/** Tokens as the command line shows them (docs/operations.md, "Tokens"). */
export const tokenDisplay = {
  /** `dp_` and 5 random characters: enough to match a leaked secret, 162 bits short of using it. */
  shownChars: 8,
  maxNoteLength: 200,
} as const;

/** How often a server started by npm checks that npm is still there (src/cli/parentWatch.ts). */
export const parentCheckMs = 500;

/** Cluster mode on NATS JetStream (docs/cluster.md). */
export const clusterDefaults = {
  /** Pause between attempts to reach NATS again once the connection is lost; attempts never stop. */
  reconnectWaitMs: 500,
  /** How long one JetStream call (publish, pull, acknowledgement) waits for its answer. */
  requestTimeoutMs: 5_000,
  /**
   * A take from the collection queue that finds nothing waits this long for work to arrive, and
   * no take lasts longer (docs/cluster.md, "Taking work"). Far below the lease.
   */
  pullExpiresMs: 250,
  /**
   * A holder counts its lease as expired this long before NATS redelivers it, so that its late
   * acknowledgement or release never touches the redelivery (docs/cluster.md, "Leases").
   */
  leaseMarginMs: 1_000,
  /** Leases out at once across the cluster; beyond it takes get nothing until some are acknowledged. */
  maxLeasesOut: 50_000,
  /** Pause between attempts to set the collection queue up again after a reconnect. */
  setupRetryMs: 1_000,
} as const;
