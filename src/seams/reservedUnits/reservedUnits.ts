// Units in hand: what the running server reserved of each account's month and has not spent yet;
// displays take them from the units reserved to show requests counted (docs/storage.md#units-in-hand).
import type { Databases } from '../../store/environment.js';

/** Units in hand of one account and month ('YYYY-MM'). */
export interface ReservedCount {
  account: string;
  month: string;
  units: number;
}

/**
 * The seam of units in hand: where a server records what it holds, and where displays read it.
 * A node alone: this LMDB record; a cluster node: the sum over every live node
 * (src/seams/reservedUnits/clusterReservedUnits.ts), kept in this record too.
 */
export interface ReservedUnitsRecord {
  /** Makes `held` the whole record: an account and month not in it hold none. */
  replace(held: readonly ReservedCount[]): Promise<void>;
  /** Units in hand of `account` in `month` ('YYYY-MM'); 0 when none were recorded. */
  of(account: string, month: string): number;
}

export class ReservedUnits implements ReservedUnitsRecord {
  constructor(private readonly dbs: Databases) {}

  /** Units in hand of `account` for `month`; 0 when none were recorded. */
  of(account: string, month: string): number {
    return this.dbs.reservedUnits.get([account, month]) ?? 0;
  }

  /** Makes `held` the whole record, in one write transaction: an entry not in it is removed. */
  replace(held: readonly ReservedCount[]): Promise<void> {
    return this.dbs.root.transaction(() => {
      const kept = new Set(held.map((entry) => entryOf(entry.account, entry.month)));
      const stale = [...this.dbs.reservedUnits.getKeys()].filter(([account, month]) => !kept.has(entryOf(account, month)));
      for (const key of stale) this.dbs.reservedUnits.remove(key);
      for (const { account, month, units } of held) {
        if (this.dbs.reservedUnits.get([account, month]) !== units) this.dbs.reservedUnits.put([account, month], units);
      }
    });
  }
}

function entryOf(account: string, month: string): string {
  return `${account}\n${month}`;
}
