// What each platform's collection is doing, for the operator console
// (docs/operations.md#platform-status): its breaker, budget, collections by outcome, last errors.
import { defer, finalize, type Observable, tap } from 'rxjs';
import { limits } from '../config.js';
import type { BreakerChange } from '../../streams/circuitBreaker.js';
import type { Logger } from '../log.js';
import { type CollectionOutcome, type CollectionResult, type Collector, type PlatformCode, parseResourceKey } from '../model.js';
import { FailureWarnings, failureMessage } from './failureWarnings.js';

export type OutcomeKind = CollectionOutcome['kind'];
export const outcomeKinds: readonly OutcomeKind[] = ['found', 'notFound', 'rateLimited', 'failed', 'deferred'];

/** Collections that ended in one minute, by outcome. */
export type MinuteCounts = { minute: number } & Record<OutcomeKind, number>;

export interface CollectionError {
  /** ms since the epoch */
  at: number;
  resource: string;
  message: string;
}

/** A server of a federated platform whose own breaker is open (docs/platforms.md#each-server-its-own-upstream). */
export interface FailingServer {
  host: string;
  /** When its breaker opened, when its trial call goes out, and after how many failed calls in a row. */
  since: number;
  trialAt: number;
  failures: number;
  /** The last error of a resource on it, as the console's last errors say it; null when none is known. */
  lastError: string | null;
}

export interface PlatformStatus {
  platform: PlatformCode;
  /** Why the platform cannot collect at all (missing credentials); null when it can. */
  disabledReason: string | null;
  /** As the breaker last announced itself: `open` until a trial call succeeds. */
  breaker: { state: 'closed' | 'open'; since: number | null; trialAt: number | null; failures: number | null };
  /** Collector calls (a batch is one call) in flight and made in the last 60 s, against the platform's budget. */
  budget: { concurrency: number; perMinute: number | null; inFlight: number; callsLastMinute: number };
  /** Resources handed to the platform's pipeline and not yet answered: waiting for budget, batch or answer. */
  collecting: number;
  /** The last `platformStatus.minutes` minutes, oldest first; the last is the current minute, still running. */
  perMinute: MinuteCounts[];
  /** Failed and rate-limited collections, newest first, at most `platformStatus.lastErrors`. */
  lastErrors: CollectionError[];
  /**
   * Collections failing in a row since `since` (failed or rate limited, none found or not found
   * since), with the last reason; null while the last collection tried succeeded.
   */
  failing: { since: number; failures: number; lastError: string } | null;
  /**
   * On a federated platform, the servers whose breaker is open, oldest first, at most
   * `platformStatus.failingServers` (the newest kept); each fails on its own, never the platform.
   */
  failingServers: FailingServer[];
}

export interface PlatformStatusSnapshot {
  /** When it was taken (ms since the epoch). */
  at: number;
  /**
   * Collection requests waiting in the queue, not yet taken, for every platform together; null
   * in a cluster, where the queue is NATS's and its depth is read there (docs/cluster.md).
   */
  queueWaiting: number | null;
  platforms: PlatformStatus[];
}

/** Where the HTTP layer reads the status from, on whichever thread it runs. */
export interface PlatformStatusSource {
  /** The latest snapshot; undefined on an edge thread before the first post. */
  snapshot(): PlatformStatusSnapshot | undefined;
}

/** What the board needs to know of a platform at the start. */
export interface PlatformSetup {
  budget: { concurrency: number; perMinute: number };
  disabledReason?: string | undefined;
  /** On a federated platform: the host of an identifier. */
  hostOf?: ((identifier: string) => string) | undefined;
}

const { minutes, lastErrors: errorsKept, failingServers: serversKept } = limits.platformStatus;
const minuteMs = 60_000;
const secondMs = 1_000;
const slash = '/'.charCodeAt(0);

/** One platform's counters: per-minute outcome counts and per-second calls in rings, stamped with their period. */
class PlatformRecord {
  breaker: PlatformStatus['breaker'] = { state: 'closed', since: null, trialAt: null, failures: null };
  failing: PlatformStatus['failing'] = null;
  inFlight = 0;
  collecting = 0;
  readonly outcomes = new Int32Array(minutes * outcomeKinds.length);
  readonly minuteStamps = new Float64Array(minutes).fill(-1);
  readonly calls = new Int32Array(60);
  readonly secondStamps = new Float64Array(60).fill(-1);
  /** A ring of the last errors; `nextError` is where the next one goes. */
  readonly errors: CollectionError[] = [];
  nextError = 0;
  /** Federated servers whose breaker is open, by host, in the order they opened. */
  readonly failingServers = new Map<string, FailingServer>();

  constructor(
    /** Its place among the board's records, for per-pipeline counts in a typed array. */
    readonly index: number,
    readonly platform: PlatformCode,
    readonly setup: PlatformSetup,
  ) {}

  countOutcome(kind: OutcomeKind, now: number): void {
    const minute = Math.floor(now / minuteMs);
    const slot = minute % minutes;
    if (this.minuteStamps[slot] !== minute) {
      this.minuteStamps[slot] = minute;
      this.outcomes.fill(0, slot * outcomeKinds.length, (slot + 1) * outcomeKinds.length);
    }
    this.outcomes[slot * outcomeKinds.length + outcomeKinds.indexOf(kind)]! += 1;
  }

  countCall(now: number): void {
    const second = Math.floor(now / secondMs);
    const slot = second % 60;
    if (this.secondStamps[slot] !== second) {
      this.secondStamps[slot] = second;
      this.calls[slot] = 0;
    }
    this.calls[slot]! += 1;
  }

  addError(error: CollectionError): void {
    this.errors[this.nextError] = error;
    this.nextError = (this.nextError + 1) % errorsKept;
    const server = this.failingServers.get(this.hostOfKey(error.resource) ?? '');
    if (server) server.lastError = error.message;
  }

  /** The host of a resource key on a federated platform; undefined elsewhere. */
  hostOfKey(key: string): string | undefined {
    return this.setup.hostOf?.(parseResourceKey(key).identifier);
  }

  /** The last error kept of a resource on `host`, newest first. */
  lastErrorOn(host: string): string | null {
    for (let back = 1; back <= this.errors.length; back++) {
      const error = this.errors[(this.nextError - back + errorsKept) % errorsKept]!;
      if (this.hostOfKey(error.resource) === host) return error.message;
    }
    return null;
  }

  status(now: number): PlatformStatus {
    const minute = Math.floor(now / minuteMs);
    const perMinute: MinuteCounts[] = [];
    for (let at = minute - minutes + 1; at <= minute; at++) {
      const slot = at % minutes;
      const counts: MinuteCounts = { minute: at * minuteMs, found: 0, notFound: 0, rateLimited: 0, failed: 0, deferred: 0 };
      if (this.minuteStamps[slot] === at) {
        for (const [index, kind] of outcomeKinds.entries()) counts[kind] = this.outcomes[slot * outcomeKinds.length + index]!;
      }
      perMinute.push(counts);
    }
    const second = Math.floor(now / secondMs);
    let callsLastMinute = 0;
    for (let slot = 0; slot < 60; slot++) if (this.secondStamps[slot]! > second - 60) callsLastMinute += this.calls[slot]!;
    const lastErrors: CollectionError[] = [];
    for (let back = 1; back <= this.errors.length; back++) {
      lastErrors.push({ ...this.errors[(this.nextError - back + errorsKept) % errorsKept]! });
    }
    const { concurrency, perMinute: callsPerMinute } = this.setup.budget;
    return {
      platform: this.platform,
      disabledReason: this.setup.disabledReason ?? null,
      breaker: { ...this.breaker },
      budget: {
        concurrency,
        perMinute: Number.isFinite(callsPerMinute) ? callsPerMinute : null,
        inFlight: this.inFlight,
        callsLastMinute,
      },
      collecting: this.collecting,
      perMinute,
      lastErrors,
      failing: this.failing && { ...this.failing },
      failingServers: [...this.failingServers.values()].map((server) => ({ ...server })),
    };
  }
}

/**
 * Told by the resource thread's collection path as it goes (counters and fixed rings: nothing
 * allocated per collection but an error's record); `snapshot()` copies it out as plain data,
 * which edge threads receive once a second (src/threads/edges.ts).
 */
export class PlatformStatusBoard implements PlatformStatusSource {
  private readonly records = new Map<PlatformCode, PlatformRecord>();
  private warnings: FailureWarnings | undefined;

  constructor(
    platforms: Iterable<readonly [PlatformCode, PlatformSetup]>,
    private readonly now: () => number,
    /** Requests waiting in the collection queue; null when this node cannot tell. */
    private readonly queueWaiting: () => number | null,
  ) {
    for (const [platform, setup] of platforms) this.records.set(platform, new PlatformRecord(this.records.size, platform, setup));
  }

  /**
   * The same collection pipeline (streams/collection.ts), watched: each resource handed to it
   * counts as collecting on its platform until its result comes out, and each result is
   * counted by outcome. A pipeline that ends (a failure, a stop) takes its unanswered
   * resources off the counts.
   */
  watched(collect: (keys: Observable<string>) => Observable<CollectionResult>): (keys: Observable<string>) => Observable<CollectionResult> {
    return (keys) =>
      defer(() => {
        const unanswered = new Int32Array(this.records.size);
        const handed = (key: string) => {
          const record = this.recordOf(key);
          if (!record) return;
          record.collecting += 1;
          unanswered[record.index]! += 1;
        };
        const answered = ({ key, outcome }: CollectionResult) => {
          const record = this.recordOf(key);
          if (!record) return;
          record.collecting -= 1;
          unanswered[record.index]! -= 1;
          this.collectionEnded(record, key, outcome);
        };
        return collect(keys.pipe(tap(handed))).pipe(
          tap(answered),
          finalize(() => {
            for (const record of this.records.values()) record.collecting -= unanswered[record.index]!;
          }),
        );
      });
  }

  /** From now on, logs a warning per platform whose collections fail, at most every `everyMs` (docs/operations.md#collection-failing). */
  warnOnFailures(log: Logger, everyMs: number = limits.platformStatus.warnEveryMs): void {
    this.warnings = new FailureWarnings(log, this.now, everyMs);
  }

  private collectionEnded(record: PlatformRecord, key: string, outcome: CollectionOutcome): void {
    const now = this.now();
    record.countOutcome(outcome.kind, now);
    const message = failureMessage(outcome);
    if (message !== null) {
      record.addError({ at: now, resource: key, message });
      const { failing } = record;
      record.failing = { since: failing?.since ?? now, failures: (failing?.failures ?? 0) + 1, lastError: message };
    } else if (outcome.kind !== 'deferred') {
      record.failing = null;
    }
    this.warnings?.ended(record.platform, outcome);
  }

  breakerChanged(platform: PlatformCode, change: BreakerChange): void {
    const record = this.records.get(platform);
    if (!record) return;
    record.breaker =
      change.state === 'open'
        ? { state: 'open', since: change.at, trialAt: change.trialAt, failures: change.failures }
        : { state: 'closed', since: change.at, trialAt: null, failures: null };
  }

  /**
   * A federated platform's server opened or closed its own breaker: the console lists the open
   * ones, with why, and the platform's own breaker (and its metric) stays as it is.
   */
  serverBreakerChanged(platform: PlatformCode, host: string, change: BreakerChange): void {
    const record = this.records.get(platform);
    if (!record) return;
    record.failingServers.delete(host);
    if (change.state === 'closed') return;
    const { at: since, trialAt, failures } = change;
    record.failingServers.set(host, { host, since, trialAt, failures, lastError: record.lastErrorOn(host) });
    // Bounded: the servers that opened longest ago go first.
    for (const oldest of record.failingServers.keys()) {
      if (record.failingServers.size <= serversKept) break;
      record.failingServers.delete(oldest);
    }
  }

  /** The same collector, with each of its calls counted against the platform's budget. */
  counted(platform: PlatformCode, collector: Collector): Collector {
    const record = this.records.get(platform);
    if (!record) return collector;
    return {
      maxBatch: collector.maxBatch,
      collect: (refs, signal) => {
        record.inFlight += 1;
        record.countCall(this.now());
        return collector.collect(refs, signal).finally(() => {
          record.inFlight -= 1;
        });
      },
    };
  }

  /** Each platform's breaker as last announced (for the metrics). */
  *breakerStates(): Generator<readonly [PlatformCode, 'closed' | 'open']> {
    for (const [platform, record] of this.records) yield [platform, record.breaker.state];
  }

  snapshot(): PlatformStatusSnapshot {
    const now = this.now();
    return { at: now, queueWaiting: this.queueWaiting(), platforms: [...this.records.values()].map((record) => record.status(now)) };
  }

  /** The record of a resource key's platform, found without building a string. */
  private recordOf(key: string): PlatformRecord | undefined {
    for (const record of this.records.values()) {
      const { length } = record.platform;
      if (key.charCodeAt(length) === slash && key.startsWith(record.platform)) return record;
    }
    return undefined;
  }
}

/** On an edge thread: the snapshot the resource thread posted last. */
export class PostedPlatformStatus implements PlatformStatusSource {
  private latest: PlatformStatusSnapshot | undefined;

  take(snapshot: PlatformStatusSnapshot): void {
    this.latest = snapshot;
  }

  snapshot(): PlatformStatusSnapshot | undefined {
    return this.latest;
  }
}
