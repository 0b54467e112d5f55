// An upstream's calls (a platform's, or a federated platform's server's) shared by a cluster's nodes
// (docs/design/cluster.md#upstream-budgets-cluster-wide): blocks of each window's calls
// reserved from a KV budget ledger, never past the window's cap.
import type { NatsConnection } from '@nats-io/transport-node';
import { reserveUnits, type Reservation } from '../quotaLedger/reservations.js';
import type { Health } from '../../health.js';
import type { Logger } from '../../log.js';
import type { UpstreamKey } from '../../../streams/upstreamKey.js';
import type { QuotaLedger } from '../quotaLedger/quotaLedger.js';
import type { CallTurn, SharedCallBudget } from '../../../streams/platformGate.js';
import { KvQuotaLedger } from '../quotaLedger/kvQuotaLedger.js';

export const budgetBucket = 'DATAPOINTS_BUDGETS';

export interface ClusterCallBudgetOptions {
  /** Every node counts calls in windows of this length, aligned on the epoch. */
  windowMs: number;
  /** A node reserves this fraction of a window's calls at a time (at least one call). */
  blocksPerWindow: number;
  /** How long after a failed reservation the upstream's next call asks again. */
  retryMs: number;
  now: () => number;
  health: Health;
  log: Pick<Logger, 'warn' | 'info'>;
}

export interface BudgetLedgerOptions {
  /** How long a KV call waits for its answer. */
  requestTimeoutMs: number;
  /** Entries older than this are dropped by NATS. */
  keptMs: number;
}

/** The Health component failed reservations are reported under. */
export const budgetHealth = 'upstream budget';

/**
 * The calls of window `window` (its index since the epoch) at `perMinute`: the windows' caps
 * add up to exactly perMinute a minute over time, even for a fractional rate (1.6 a minute in
 * windows of a minute: 1, 2, 1, 2, 2, ...).
 */
export function callsInWindow(perMinute: number, windowMs: number, window: number): number {
  const perWindow = (perMinute * windowMs) / 60_000;
  // The epsilon keeps a product that lands a hair under a whole number from losing a call.
  const upTo = (index: number) => Math.floor(index * perWindow + 1e-9);
  return upTo(window + 1) - upTo(window);
}

export class ClusterCallBudget implements SharedCallBudget {
  /** Units reserved and not yet spent, per upstream, for one window. */
  private readonly held = new Map<UpstreamKey, { window: number; left: number }>();
  /** One turn at a time per upstream, so that a block is reserved once, not once per waiting call. */
  private readonly turns = new Map<UpstreamKey, Promise<unknown>>();
  private readonly failing = new Set<UpstreamKey>();

  /** On the budget ledger of the cluster on `connection` (created by the first node to open it). */
  static async open(
    connection: NatsConnection,
    ledger: BudgetLedgerOptions,
    options: ClusterCallBudgetOptions,
  ): Promise<ClusterCallBudget> {
    const opened = await KvQuotaLedger.open(connection, {
      replicas: 1,
      requestTimeoutMs: ledger.requestTimeoutMs,
      bucket: budgetBucket,
      maxAgeMs: ledger.keptMs,
    });
    return new ClusterCallBudget(opened, options);
  }

  constructor(
    private readonly ledger: QuotaLedger,
    private readonly options: ClusterCallBudgetOptions,
  ) {}

  takeCall(upstream: UpstreamKey, perMinute: number): Promise<CallTurn> {
    const turn = (this.turns.get(upstream) ?? Promise.resolve()).then(() => this.nextTurn(upstream, perMinute));
    this.turns.set(upstream, turn);
    return turn;
  }

  private async nextTurn(upstream: UpstreamKey, perMinute: number): Promise<CallTurn> {
    const { windowMs, now } = this.options;
    for (;;) {
      const window = Math.floor(now() / windowMs);
      const held = this.held.get(upstream);
      if (held?.window === window && held.left > 0) {
        held.left -= 1;
        return { taken: true };
      }
      const cap = callsInWindow(perMinute, windowMs, window);
      const reservation = await this.reserve(upstream, window, cap);
      if (!reservation) return { taken: false, retryAt: now() + this.options.retryMs };
      if (reservation.units === 0) return { taken: false, retryAt: (window + 1) * windowMs };
      // Taken on the next round, unless the window ended while the ledger answered.
      this.held.set(upstream, { window, left: reservation.units });
    }
  }

  /** Undefined when the ledger could not be reached or refused: nothing was reserved that we know of. */
  private async reserve(upstream: UpstreamKey, window: number, cap: number): Promise<Reservation | undefined> {
    const block = Math.max(1, Math.floor(cap / this.options.blocksPerWindow));
    try {
      const reservation = await reserveUnits(this.ledger, upstream, String(window * this.options.windowMs), block, cap);
      if (this.failing.delete(upstream)) {
        this.options.log.info({ upstream }, 'upstream budget reserved again');
        if (this.failing.size === 0) this.options.health.clear(budgetHealth);
      }
      return reservation;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!this.failing.has(upstream)) this.options.log.warn({ upstream, err: error }, 'upstream budget not reserved; the upstream waits');
      this.failing.add(upstream);
      this.options.health.report(budgetHealth, `${upstream} calls cannot be reserved: ${message}`);
      return undefined;
    }
  }
}
