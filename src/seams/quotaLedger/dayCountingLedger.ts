// The cluster's quota ledger, counting per day as well (docs/dashboard.md#in-a-cluster): it tells
// every granted change to the cluster's per-day counts, as the LMDB ledger tells its own.
import type { Logger } from '../../log.js';
import type { LedgerEntry, QuotaLedger, SwapResult } from './quotaLedger.js';
import type { ClusterDailyUsage } from '../../cluster/clusterDailyUsage.js';

/** How many recent revisions of one entry are remembered (calls on one entry overlap a little). */
const remembered = 8;

/**
 * A decorator over the NATS KV ledger that writes to clusterDailyUsage.ts. A swap names a
 * revision, not the count it replaces, so it remembers the last counts it saw of each entry
 * (every swap follows a read or a refused swap of the same entry, both of which show it). The
 * per-day write follows the swap without holding up the admission; `flush` waits for those still
 * out, for a while: a stop never waits long on NATS.
 */
export class DayCountingLedger implements QuotaLedger {
  private readonly seen = new Map<string, LedgerEntry[]>();
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly ledger: QuotaLedger,
    private readonly days: ClusterDailyUsage,
    private readonly log: Pick<Logger, 'error'>,
    private readonly now: () => number = Date.now,
  ) {}

  async read(account: string, month: string): Promise<LedgerEntry> {
    return this.saw(account, month, await this.ledger.read(account, month));
  }

  async swap(account: string, month: string, revision: number, granted: number): Promise<SwapResult> {
    const before = revision === 0 ? 0 : this.seen.get(entryOf(account, month))?.find((entry) => entry.revision === revision)?.granted;
    const result = await this.ledger.swap(account, month, revision, granted);
    if (!result.swapped) {
      this.saw(account, month, result.current);
      return result;
    }
    this.saw(account, month, result.entry);
    if (before === undefined) {
      this.log.error({ account, month, revision }, 'granted units not counted per day: the count they replace was not seen');
      return result;
    }
    const written = this.days
      .record(account, month, granted - before, this.now())
      .catch((error: unknown) => this.log.error({ err: error, account, month }, 'granted units not counted per day'))
      .finally(() => this.writing.delete(written));
    this.writing.add(written);
    return result;
  }

  /** Resolves once every per-day write begun so far has landed or failed, or after `withinMs` (logged). */
  async flush(withinMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), withinMs)));
    const outcome = await Promise.race([Promise.all([...this.writing]), late]);
    clearTimeout(timer);
    if (outcome === 'late') this.log.error({ writes: this.writing.size }, 'per-day counts still being written at stop; left');
  }

  private saw(account: string, month: string, entry: LedgerEntry): LedgerEntry {
    const key = entryOf(account, month);
    const recent = this.seen.get(key) ?? [];
    recent.push(entry);
    if (recent.length > remembered) recent.shift();
    this.seen.set(key, recent);
    return entry;
  }
}

function entryOf(account: string, month: string): string {
  return `${account}\n${month}`;
}
