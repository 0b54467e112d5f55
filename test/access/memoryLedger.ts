// A quota ledger in memory whose writes can be held until the test lets them land, to see
// what admission does while a reservation is on its way. It passes the ledger contract.
import type { LedgerEntry, QuotaLedger, SwapResult } from '../../src/seams/quotaLedger/quotaLedger.js';

export class MemoryLedger implements QuotaLedger {
  private readonly entries = new Map<string, LedgerEntry>();
  private revisions = 0;
  /** Swaps waiting for `land()` while `hold` is set. */
  private readonly held: Array<() => void> = [];
  hold = false;
  /** Every successful swap: [account, month, granted], in order. */
  readonly writes: Array<[string, string, number]> = [];
  /** When set, the next swap rejects with it. */
  failNext: Error | undefined;
  /** When set, every call rejects with it, as a ledger out of reach. */
  down: Error | undefined;

  granted(account: string, month: string): number {
    return this.entries.get(`${account}/${month}`)?.granted ?? 0;
  }

  read(account: string, month: string): Promise<LedgerEntry> {
    if (this.down) return Promise.reject(this.down);
    return Promise.resolve(this.entries.get(`${account}/${month}`) ?? { granted: 0, revision: 0 });
  }

  swap(account: string, month: string, revision: number, granted: number): Promise<SwapResult> {
    const failure = this.down ?? this.failNext;
    this.failNext = undefined;
    if (failure) return Promise.reject(failure);
    const key = `${account}/${month}`;
    const current = this.entries.get(key) ?? { granted: 0, revision: 0 };
    if (current.revision !== revision) return Promise.resolve({ swapped: false, current });
    const entry = { granted, revision: ++this.revisions };
    this.entries.set(key, entry);
    this.writes.push([account, month, granted]);
    const result: SwapResult = { swapped: true, entry };
    if (!this.hold) return Promise.resolve(result);
    return new Promise((resolve) => this.held.push(() => resolve(result)));
  }

  /** Lets every held write land; returns how many did. */
  land(): number {
    const landing = this.held.splice(0);
    for (const resolve of landing) resolve();
    return landing.length;
  }
}
