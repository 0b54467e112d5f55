// Every numeric limit and default of the service, named in one place. What each one does is in
// the docs page its comment cites; a comment here says only why the number is what it is.
import type { ResourcePolicy } from '../machines/resource.js';

export const limits = {
  /** docs/api.md#a-47 */
  maxResourcesPerRequest: 10,
  /** Bodies above this are refused with 413 before they are buffered. */
  maxBodyBytes: 1024 * 1024,
  /** Read and thrown away past maxBodyBytes, so the client reads its 413 (docs/http.md#request-bodies). */
  maxDiscardedBodyBytes: 8 * 1024 * 1024,
  /**
   * An invalid body is explained until this many messages or references (docs/api.md#a-41); one
   * more message then says the rest was not checked.
   */
  explained: { maxMessages: 10, maxReferences: 100 },
  /** Identifiers echoed inside a 422 message are cut to this many characters. */
  maxEchoedIdentifier: 100,
  /** How often the server looks for accounts and tokens changed by the CLI (revocation within 1 s). */
  authRefreshMs: 250,
  /** Small, frequent due scans keep each burst of transitions short beside the searches. */
  dueScanMs: 25,
  dueScanBatch: 250,
  /** A server alone scans the due index from its start again this often (docs/architecture.md#leases-in-memory). */
  dueRescanMs: 1_000,
  /** Resources being transitioned or collected at once, beyond which due work waits in the index. */
  maxResourcesInWork: 2_000,
  /** Searches wait behind little resource work (docs/architecture.md#pacing-background-work, docs/architecture.md#searches-first). */
  resourceWork: { sliceMs: 1, maxRunning: 64, idleMaxRunning: 256, minShare: 0.1 },
  edgeLoadSampleMs: 20,
  /** How often the collection loop asks its queue for work besides the queue's own signal. */
  collectionPollMs: 25,
  /** A failed background pipeline (collection, due work) starts again after this pause. */
  pipelineRestartMs: 1_000,
  /** Ends before the stop deadline, so that giving collections back fits (docs/architecture.md#stopping). */
  collectionStopGraceMs: 3_000,
  /** A step that loses its conditional commit is computed again at most so often (docs/architecture.md#conditional-commits). */
  commitAttempts: 5,
  /** A token's last use to the minute tells a token in use from a forgotten one; each write is a commit. */
  tokenTouchIntervalMs: 60_000,
  /** Views kept decoded per generation (docs/guarantees.md#memory-of-a-search-thread): a busy service's warm set. */
  viewCacheGeneration: 50_000,
  /** How long a browser may cache a CORS preflight answer (docs/http.md#cors). */
  corsMaxAgeSeconds: 600,
  /** Allowed origins whose answer headers are kept built (with `--cors '*'` origins are unbounded). */
  maxCorsOriginsCached: 256,
  /** A stop ends within the promised 5 s, parent watch included (docs/operations.md#signals). */
  shutdownGraceMs: 3_000,
  stopDeadlineMs: 4_000,
  /** Accounts one server admits for in a month, ~150 bytes a slot (src/access/accountTable.ts). */
  accountSlots: 16_384,
  /** Keep-alive clients of a stopping edge get a 503 with Connection: close, not a reset. */
  keepAliveLingerMs: 300,
  /** How often an edge thread posts the answers it counted to the metrics (docs/operations-endpoints.md#metrics-with-threads). */
  edgeMetricsPostMs: 1_000,
  /** `serve --threads` at most: each edge thread holds its own LMDB handle and caches. */
  maxEdgeThreads: 64,
  /** An edge thread's heap, in MiB (docs/guarantees.md#memory-of-a-search-thread). */
  edgeHeapMiB: 512,
  /** An edge thread replaced after it ends (docs/guarantees.md#an-edge-thread-that-ends). */
  edgeRestart: {
    /**
     * An edge whose heap holds more than this share of `edgeHeapMiB` at a check ends itself and
     * is replaced: V8 reaching the limit would end the whole process.
     */
    heapShare: 0.85,
    heapCheckMs: 1_000,
    /** An edge that listened this long before it ended is replaced at once, whatever came before. */
    stableMs: 10_000,
    /** Edges ending in a row, each sooner than `stableMs` after it listened: the node stops at the next. */
    maxQuickEnds: 5,
    /** The wait before the second quick replacement in a row, doubled for each one after it. */
    backoffMs: 250,
  },
  /**
   * Quota blocks (docs/guarantees.md#quota-bound): `maxBlock` is the most a kill -9 over-counts per
   * account and server; no request waits longer than `waitMs` for its block, and none goes uncounted.
   */
  quotaReservation: { maxBlock: 256, horizonMs: 200, waitMs: 10_000 },
  /** How often the server records the units it holds in hand, so displays show requests counted (docs/operations.md#usage-shown). */
  reservedUnitsRecordMs: 1_000,
  /**
   * While the data store refuses commits, how often a probe looks for room again, and the free
   * bytes its file system must show before the probe tries a small write (docs/storage.md#a-full-disk).
   */
  storageProbe: { everyMs: 1_000, minFreeBytes: 256 * 1024 },
  /** The WebSocket stream of resource changes (docs/push.md#limits). */
  push: {
    /** Distinct references one connection may follow at once. */
    maxSubscriptionsPerConnection: 1_000,
    /** Open stream connections per account on one server, all threads together. */
    maxConnectionsPerAccount: 100,
    /** A client message larger than this closes the connection with 1009. */
    maxMessageBytes: 16 * 1024,
    /** Unread output: closed with 4002 at the soft bound, cut by uWebSockets.js at the hard one. */
    maxBufferedBytes: 256 * 1024,
    hardBackpressureBytes: 1024 * 1024,
    /** How often connections are checked for a revoked token and for unread output (revocation within 1 s). */
    checkMs: 250,
    /** Messages waiting behind a subscribe that waits for quota; beyond it, 1008. */
    maxQueuedBytes: 1024 * 1024,
    /** Seconds without traffic before a connection is closed; uWebSockets.js pings before that. */
    idleTimeoutSeconds: 60,
    /** How long a stream ticket may be redeemed, and how many may be outstanding on one server. */
    ticketTtlMs: 30_000,
    ticketSlots: 65_536,
  },
  /** Transitions kept per resource for whoever debugs its machine (docs/storage.md#transition-history). */
  resourceHistoryLength: 20,
  /** The console's platform status (docs/operations.md#platform-status, docs/operations.md#collection-failing); `failingServers`: federated servers listed at most. */
  platformStatus: { minutes: 60, lastErrors: 10, postMs: 1_000, warnEveryMs: 60_000, failingServers: 20 },
  /** Days of per-day request counts kept per account, today included (docs/storage.md#daily-usage). */
  dailyUsageDays: 90,
  /** docs/api.md#a-39: about the time a cluster node takes to reach NATS again. */
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
  /**
   * A host a caller names may trickle its answer: the host guard's client ends a call after this
   * (docs/host-safety.md#caps), below the collection timeout so that the failure names its cause.
   */
  maxAnswerMs: 8_000,
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

/** Bounds of the command line's values (docs/operations.md#flags-of-serve): below them a failing resource would hammer the platforms. */
export const flagBounds = {
  freshForMs: { min: 1_000, max: 30 * 86_400_000 },
  retryBaseMs: { min: 1_000, max: defaultPolicy.retryCapMs },
  rateWindowMs: { min: 1_000, max: 31 * 86_400_000 },
  /** `datapoints resources list` prints at most this many resources unless told otherwise. */
  resourcesListed: { default: 50, max: 10_000 },
  /** `datapoints accounts usage --days`: the days printed, at most the days kept. */
  usageDays: { default: 30, max: limits.dailyUsageDays },
} as const;

/** Tokens as the command line shows them (docs/operations.md#tokens). */
export const tokenDisplay = {
  /** `dp_` and 5 random characters: enough to match a leaked secret, 162 bits short of using it. */
  shownChars: 8,
  maxNoteLength: 200,
} as const;

/** `datapoints accounts suspend --reason` (docs/operations.md#accounts). */
export const accountSuspension = { maxReasonLength: 200 } as const;

/** How often a server started by npm checks that npm is still there (src/cli/parentWatch.ts). */
export const parentCheckMs = 200;

/** Cluster mode on NATS JetStream (docs/cluster.md). */
export const clusterDefaults = {
  /** Pause between attempts to reach NATS again once the connection is lost; attempts never stop. */
  reconnectWaitMs: 500,
  /** How long one JetStream call (publish, pull, acknowledgement) waits for its answer. */
  requestTimeoutMs: 5_000,
  /** Units in hand shared by the nodes (docs/operations.md#usage-shown); a live node writes every half of `staleMs`. */
  reservedUnits: { staleMs: 4_000, keptMs: 60_000 },
  /** A stop waits this long at most for per-day counts still being written (docs/dashboard.md#in-a-cluster). */
  dailyFlushMs: 1_000,
  /** The longest a take waits for work (docs/design/cluster.md#taking-work): far below the lease. */
  pullExpiresMs: 250,
  /** A late answer of a holder never touches a redelivery (docs/design/cluster.md#leases). */
  leaseMarginMs: 500,
  /** A node killed -9 gives its work back within this long (docs/design/cluster.md#leases). */
  ackWaitMs: 2_000,
  /** Leases out at once across the cluster; beyond it takes get nothing until some are acknowledged. */
  maxLeasesOut: 50_000,
  /** Pause between attempts to set the collection queue up again after a reconnect. */
  setupRetryMs: 1_000,
  /** Buckets by window length, so old windows do not pile up (docs/design/cluster.md#rate-limit-across-nodes). */
  rateBuckets: [
    { bucket: 'DATAPOINTS_RATE_1M', longestWindowMs: 60_000 },
    { bucket: 'DATAPOINTS_RATE_1H', longestWindowMs: 3_600_000 },
    { bucket: 'DATAPOINTS_RATE_1D', longestWindowMs: 86_400_000 },
    { bucket: 'DATAPOINTS_RATE_31D', longestWindowMs: flagBounds.rateWindowMs.max },
  ],
  /** Past its window's end an entry is kept at least this long: more than nodes' clocks may differ. */
  rateEntryGraceMs: 60_000,
  /** Platforms' call budgets shared by the nodes (docs/design/cluster.md#upstream-budgets-cluster-wide). */
  upstreamBudget: {
    /** Calls are counted in windows of a minute, aligned on the epoch on every node. */
    windowMs: 60_000,
    /** A node reserves an eighth of a window's calls at a time (at least one). */
    blocksPerWindow: 8,
    /** After a reservation failed, a platform's next call asks again this much later. */
    retryMs: 1_000,
    /** The budget ledger's entries are dropped by NATS after this: their windows are long over. */
    keptMs: 10 * 60_000,
  },
} as const;

/** A cluster node's replica of the resource log, and its share of due work (docs/cluster.md). */
export const replicaDefaults = {
  /** Changes from the log handed to LMDB and not yet written, at most; LMDB writes them in batches. */
  maxPendingWrites: 1_000,
  /** Pause before following the log again after a failure. */
  restartDelayMs: 1_000,
  /** A follower finds its consumer gone within about this (docs/design/cluster.md#resource-replication). */
  followPullMs: 2_000,
  /** Nodes seldom race to step a resource just due (docs/design/cluster.md#due-work-exactly-once). */
  dueSpreadMs: 2_000,
} as const;

/** The dashboard and the operator console (docs/dashboard.md). */
export const webLimits = {
  /**
   * scrypt for passwords: N = 2^15, r = 8, p = 1 (32 MiB and ~50-100 ms a hash on this kind of
   * machine: slow for a guesser, bearable for a sign-in), 32-byte keys, 16-byte salts.
   */
  scrypt: { cost: 2 ** 15, blockSize: 8, parallelization: 1, keyLength: 32, saltBytes: 16, maxmem: 64 * 1024 * 1024 },
  /**
   * The node's password hasher (docs/dashboard.md#password-hashing): hashes run at once, each on a
   * thread of its own (one core at most goes to sign-ins), hashes that may wait (about a second
   * and a half of them), and the Retry-After of a sign-in refused when they are all taken.
   */
  hashing: { threads: 1, queued: 16, busyRetrySeconds: 2 },
  /** Passwords shorter are refused: the throttle below caps online guesses, not offline ones. */
  minPasswordLength: 12,
  maxPasswordLength: 256,
  /** An invite link works this long, once. */
  inviteMs: 24 * 3_600_000,
  /** A signed-in session ends this long after sign-in; a sign-in form's session after `formSessionMs`. */
  sessionMs: 12 * 3_600_000,
  formSessionMs: 3_600_000,
  /** Sessions and invites looked at for expiry each time a session is written. */
  sweepBatch: 50,
  /** Retry-After of a dashboard write the cluster's store cannot take now (docs/dashboard.md#in-a-cluster). */
  unavailableRetrySeconds: 5,
  /** A form body larger than this is refused (the largest field is a 256-character password). */
  maxFormBytes: 16 * 1024,
  /** The sign-in throttle (docs/dashboard.md#rate-limits). */
  signin: { windowMs: 15 * 60_000, slowAfter: 3, delayMs: 500, maxDelayMs: 3_000, refuseAfter: 10 },
  /** How often the console's live page is sent fresh figures. */
  liveEventMs: 1_000,
  /** A live stream ends after this long; the browser reconnects at once, through the session check. */
  liveStreamMs: 30_000,
  /** Days in the dashboard's usage chart: every day kept. */
  usageChartDays: limits.dailyUsageDays,
} as const;

/**
 * Datapoint history (docs/history.md#retention): every collected point for `detailMs`, then one
 * point per UTC day for `days` days (0: nothing is recorded).
 */
export interface HistoryPolicy {
  detailMs: number;
  days: number;
}

export const historyDefaults: HistoryPolicy = { detailMs: 7 * 86_400_000, days: 400 };

/** The values `--history-detail` and `--history-days` accept (docs/history.md#retention). */
export const historyBounds = {
  detailMs: { min: 60_000, max: 90 * 86_400_000 },
  days: { min: 0, max: 3_650 },
} as const;

/** The roll-up of detail into days, in small slices beside the commits (docs/history.md#roll-up). */
export const historyRollUp = { sliceLoose: 16, sliceMonths: 8, sliceGapMs: 20, passMs: 3_600_000 } as const;
