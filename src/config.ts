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
   * this the 413 closes the connection (docs/http.md#request-bodies).
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
  /**
   * A server alone scans on from the last due entry it read, past the resources it holds leases
   * on in memory, and from the start of the index again this often (docs/architecture.md#leases-in-memory).
   */
  dueRescanMs: 1_000,
  /** Resources being transitioned or collected at once, beyond which due work waits in the index. */
  maxResourcesInWork: 2_000,
  /**
   * Resource work runs in slices of at most `sliceMs` per event-loop turn, so a search waits
   * behind one slice at most, and at most `maxRunning` steps are unfinished at once while the
   * edges are busy, so a search's usage commit waits behind few resource commits, up to
   * `idleMaxRunning` while they are idle (docs/architecture.md#pacing-background-work). While searches keep the edge threads busy, the work keeps `minShare` of
   * the time; edges write how busy they are every `edgeLoadSampleMs` (docs/architecture.md#searches-first).
   */
  resourceWork: { sliceMs: 1, maxRunning: 64, idleMaxRunning: 256, minShare: 0.1 },
  edgeLoadSampleMs: 20,
  /** How often the collection loop asks its queue for work besides the queue's own signal. */
  collectionPollMs: 25,
  /** A failed background pipeline (collection, due work) starts again after this pause. */
  pipelineRestartMs: 1_000,
  /**
   * On a stop, collections still out after this long are given back
   * (docs/architecture.md#stopping); it ends before the stop deadline so that giving back fits.
   */
  collectionStopGraceMs: 3_000,
  /**
   * A machine step whose conditional commit loses to another writer is computed again from the
   * winner's snapshot, at most this many times in all (docs/architecture.md#conditional-commits).
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
  /** How long a browser may cache a CORS preflight answer (docs/http.md#cors). */
  corsMaxAgeSeconds: 600,
  /** Allowed origins whose answer headers are kept built (with `--cors '*'` origins are unbounded). */
  maxCorsOriginsCached: 256,
  /**
   * A stop ends within the promised 5 s (docs/operations.md#signals), counted from the signal to
   * npm when the server learns of it by the parent watch (`parentCheckMs`): requests in flight
   * get `shutdownGraceMs`, collections out `collectionStopGraceMs` beside them, and the process
   * exits at `stopDeadlineMs` whatever is left, with a line on stderr saying so.
   */
  shutdownGraceMs: 3_000,
  stopDeadlineMs: 4_000,
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
  /** How often an edge thread posts the answers it counted to the metrics (docs/operations-endpoints.md#metrics-with-threads). */
  edgeMetricsPostMs: 1_000,
  /** `serve --threads` at most: each edge thread holds its own LMDB handle and caches. */
  maxEdgeThreads: 64,
  /**
   * The most an edge thread's JavaScript heap may hold, in MiB (docs/guarantees.md#memory-of-a-search-thread):
   * far above what its bounded caches hold, and low enough that V8 lets the heap grow less
   * beyond its live size between full collections than the up to 4x it allows at its default.
   */
  edgeHeapMiB: 512,
  /**
   * Quota reservations (docs/guarantees.md#quota-and-rate-across-threads). An account
   * reserves blocks of its monthly quota on disk before spending them: as many units as it
   * spent in the last `horizonMs` (or as many requests as are waiting), never leaving more
   * than `maxBlock` reserved and unspent. That is the most a kill -9 can count for requests
   * never made, per account and server. A request that waits for a reservation longer than
   * `waitMs` is answered 500.
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
    /**
     * Output a connection may leave unread: a connection found over it (after a send, or at a
     * check every `checkMs`) is closed with 4002. uWebSockets.js cuts a connection at
     * `hardBackpressureBytes` by itself, between checks, so memory never grows past that.
     */
    maxBufferedBytes: 256 * 1024,
    hardBackpressureBytes: 1024 * 1024,
    /** How often connections are checked for a revoked token and for unread output (revocation within 1 s). */
    checkMs: 250,
    /**
     * Bytes of messages waiting behind a subscribe that waits for its account's quota
     * reservation (a burst right after connecting); beyond it the connection closes with 1008.
     */
    maxQueuedBytes: 1024 * 1024,
    /** Seconds without traffic before a connection is closed; uWebSockets.js pings before that. */
    idleTimeoutSeconds: 60,
    /** How long a stream ticket may be redeemed, and how many may be outstanding on one server. */
    ticketTtlMs: 30_000,
    ticketSlots: 65_536,
  },
  /**
   * Transitions kept per resource for whoever debugs its machine (docs/storage.md#transition-history); each costs one small entry written in the resource's commit.
   */
  resourceHistoryLength: 20,
  /**
   * The operator console's platform status (docs/operations.md#platform-status): minutes of
   * per-minute collection counts, errors kept per platform, and how often edge threads get it.
   */
  /** `warnEveryMs`: at most one "collection failing" warning per platform this often (docs/operations.md#collection-failing). */
  platformStatus: { minutes: 60, lastErrors: 10, postMs: 1_000, warnEveryMs: 60_000 },
  /** Days of per-day request counts kept per account, today included (docs/storage.md#daily-usage). */
  dailyUsageDays: 90,
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
 * The values the command line accepts for durations (docs/operations.md#flags-of-serve): below the
 * minimums a failing resource or a token bucket would hammer the platforms or the store
 * (a retry base of 0 made 193 upstream calls in 5 s for one resource).
 */
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
  /**
   * Units in hand shared by the nodes (docs/operations.md#usage-shown): an entry not written for
   * `staleMs` counts for nothing (its node is gone: each live node writes every half of it); the
   * bucket drops entries after `keptMs`.
   */
  reservedUnits: { staleMs: 4_000, keptMs: 60_000 },
  /**
   * How long a stopping node waits for its per-day counts still being written
   * (docs/dashboard.md#in-a-cluster): they take milliseconds while NATS answers, and a stop
   * never waits long on it.
   */
  dailyFlushMs: 1_000,
  /**
   * A take from the collection queue that finds nothing waits this long for work to arrive, and
   * no take lasts longer (docs/design/cluster-mechanics.md#taking-work). Far below the lease.
   */
  pullExpiresMs: 250,
  /**
   * A holder counts its lease as expired this long before NATS redelivers it, so that its late
   * acknowledgement or release never touches the redelivery (docs/design/cluster-mechanics.md#leases).
   */
  leaseMarginMs: 500,
  /**
   * The collection queue consumer's ack wait (docs/design/cluster-mechanics.md#leases): a live holder extends
   * its leases every third of it, so a node killed -9 gives its work back within this long.
   */
  ackWaitMs: 2_000,
  /** Leases out at once across the cluster; beyond it takes get nothing until some are acknowledged. */
  maxLeasesOut: 50_000,
  /** Pause between attempts to set the collection queue up again after a reconnect. */
  setupRetryMs: 1_000,
  /**
   * The KV buckets of rate windows (docs/design/cluster-mechanics.md#rate-limit-across-nodes), each holding the
   * windows up to its length: an entry expires its bucket's longest window plus
   * `rateEntryGraceMs` after its last write, so old windows' entries do not pile up.
   */
  rateBuckets: [
    { bucket: 'DATAPOINTS_RATE_1M', longestWindowMs: 60_000 },
    { bucket: 'DATAPOINTS_RATE_1H', longestWindowMs: 3_600_000 },
    { bucket: 'DATAPOINTS_RATE_1D', longestWindowMs: 86_400_000 },
    { bucket: 'DATAPOINTS_RATE_31D', longestWindowMs: flagBounds.rateWindowMs.max },
  ],
  /** Past its window's end an entry is kept at least this long: more than nodes' clocks may differ. */
  rateEntryGraceMs: 60_000,
  /** Platforms' call budgets shared by the nodes (docs/design/cluster-mechanics.md#upstream-budgets-cluster-wide). */
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
  /**
   * Each pull of a replica's follower lasts this long; after nats-server restarts, the follower
   * finds its consumer gone and makes it again within about this (docs/design/cluster-mechanics.md#resource-replication).
   */
  followPullMs: 2_000,
  /**
   * A resource that has just become due is taken by each collecting node after a delay of its own
   * below this, so that nodes seldom race to step it (docs/design/cluster-mechanics.md#due-work-exactly-once).
   */
  dueSpreadMs: 2_000,
} as const;

/** The dashboard and the operator console (docs/dashboard.md). */
export const webLimits = {
  /**
   * scrypt for passwords: N = 2^15, r = 8, p = 1 (32 MiB and ~50-100 ms a hash on this kind of
   * machine: slow for a guesser, bearable for a sign-in), 32-byte keys, 16-byte salts.
   */
  scrypt: { cost: 2 ** 15, blockSize: 8, parallelization: 1, keyLength: 32, saltBytes: 16, maxmem: 64 * 1024 * 1024 },
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
  /**
   * Sign-in throttle (docs/dashboard.md#rate-limits), per account name and per client
   * address: failures are counted in a window; from `slowAfter` failures each answer is held
   * `delayMs` per failure beyond it (at most `maxDelayMs`); from `refuseAfter` every attempt is
   * refused until the window ends.
   */
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

/**
 * The roll-up of detail into days (docs/history.md#roll-up): a slice packs at most `sliceLoose`
 * loose entries (a commit's changed values each) into their months, or reads at most
 * `sliceMonths` months of series (each a few hundred points at most), slices are `sliceGapMs`
 * apart, and a pass over every series starts every `passMs`.
 */
export const historyRollUp = { sliceLoose: 16, sliceMonths: 8, sliceGapMs: 20, passMs: 3_600_000 } as const;
