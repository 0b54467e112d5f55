// Requests counted per account and UTC day for the last `limits.dailyUsageDays` days, written only in the
// quota ledger's own write transaction (usageStore.ts), so no search costs a write of its own (docs/storage.md#daily-usage).
import { limits } from '../config.js';
import type { Databases } from './environment.js';

export interface DayCount {
  /** 'YYYY-MM-DD', UTC */
  day: string;
  requests: number;
}

const dayMs = 86_400_000;
const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

/** 'YYYY-MM-DD' of a time (ms since the epoch), in UTC. */
export function dayOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** Midnight UTC of a 'YYYY-MM-DD' day; NaN when it is not a real day. */
function startOf(day: string): number {
  if (!dayPattern.test(day)) return Number.NaN;
  const start = Date.parse(`${day}T00:00:00Z`);
  return dayOf(start) === day ? start : Number.NaN;
}

export class DailyUsage {
  constructor(private readonly dbs: Databases) {}

  /**
   * Every day from `fromDay` to `toDay` (both 'YYYY-MM-DD', inclusive), oldest first, with 0 for
   * a day nothing was counted on. Throws a RangeError for a malformed day, a range that runs
   * backwards, or one longer than the days kept. The units the running server holds in hand come
   * off the latest days of their month, as a give-back would take them, so that a day shows the
   * requests counted on it.
   */
  dailyUsage(account: string, fromDay: string, toDay: string): DayCount[] {
    const from = startOf(fromDay);
    const to = startOf(toDay);
    if (Number.isNaN(from) || Number.isNaN(to)) throw new RangeError(`days are written YYYY-MM-DD: got '${fromDay}' to '${toDay}'`);
    if (to < from) throw new RangeError(`the range ${fromDay} to ${toDay} runs backwards`);
    if ((to - from) / dayMs >= limits.dailyUsageDays) throw new RangeError(`at most ${limits.dailyUsageDays} days are kept`);
    // To the month's end: units in hand come off its latest days first, even those after `toDay`.
    const latestFirst = [
      ...this.dbs.dailyUsage.getRange({
        start: [account, `${toDay.slice(0, 7)}-32`],
        end: [account, `${dayOf(from - dayMs)}~`],
        reverse: true,
      }),
    ];
    const stored = new Map<string, number>();
    const owed = new Map<string, number>();
    for (const { key, value } of latestFirst) {
      const month = key[1].slice(0, 7);
      const reservedUnits = owed.get(month) ?? this.dbs.reservedUnits.get([account, month]) ?? 0;
      const taken = Math.min(reservedUnits, value);
      owed.set(month, reservedUnits - taken);
      stored.set(key[1], value - taken);
    }
    const days: DayCount[] = [];
    for (let time = from; time <= to; time += dayMs) {
      const day = dayOf(time);
      days.push({ day, requests: stored.get(day) ?? 0 });
    }
    return days;
  }

  /** The last `days` UTC days up to the day of `now`, oldest first (a chart's "last 90 days"). */
  lastDays(account: string, days: number, now: number): DayCount[] {
    return this.dailyUsage(account, dayOf(now - (days - 1) * dayMs), dayOf(now));
  }

  /**
   * Inside the ledger's write transaction: `units` more (or, negative, fewer) for `account` in
   * `month` ('YYYY-MM'), at `now`. Units added count on today, or on the month's last day for a
   * reservation of a month that has just ended; units given back come off the latest days first,
   * which is where they were added. So the days of a month add up to its count in `usage`.
   */
  record(account: string, month: string, units: number, now: number): void {
    if (units === 0) return;
    const day = countedDay(month, now);
    if (units > 0) {
      const before = this.dbs.dailyUsage.get([account, day]);
      this.dbs.dailyUsage.put([account, day], (before ?? 0) + units);
      // A new day for this account: the one time a day that its oldest days are looked at.
      if (before === undefined) this.prune(account, now);
      return;
    }
    let owed = -units;
    // Read before writing: the loop changes the entries it walks over.
    const latestFirst = [...this.dbs.dailyUsage.getRange({ start: [account, day], end: [account, `${month}-00`], reverse: true })];
    for (const { key, value } of latestFirst) {
      const taken = Math.min(owed, value);
      if (taken === value) this.dbs.dailyUsage.remove(key);
      else this.dbs.dailyUsage.put(key, value - taken);
      owed -= taken;
      if (owed === 0) return;
    }
  }

  /**
   * What a replica of the cluster's per-day counts writes (src/seams/replicas/dailyUsageReplica.ts): the
   * count of `day`, or none; and, in the same transaction, the month's count in `usage` as the
   * sum of its days, which in a cluster is what the dashboard shows as this month's requests
   * (docs/dashboard.md#in-a-cluster). Resolves whether anything changed.
   */
  replicate(account: string, day: string, requests: number | undefined, now: number): Promise<boolean> {
    return this.dbs.root.transaction(() => {
      const before = this.dbs.dailyUsage.get([account, day]);
      if (before === requests) return false;
      if (requests === undefined) this.dbs.dailyUsage.remove([account, day]);
      else this.dbs.dailyUsage.put([account, day], requests);
      const month = day.slice(0, 7);
      let sum = 0;
      for (const { value } of this.dbs.dailyUsage.getRange({ start: [account, `${month}-00`], end: [account, `${month}-32`] }))
        sum += value;
      if (sum === 0) this.dbs.usage.remove([account, month]);
      else this.dbs.usage.put([account, month], sum);
      if (before === undefined) this.prune(account, now);
      return true;
    });
  }

  /** Removes every day of the account; part of deleting it (accountStore.ts). */
  removeAccount(account: string): void {
    const keys = [...this.dbs.dailyUsage.getKeys({ start: [account], end: [account, '~'] })];
    for (const key of keys) this.dbs.dailyUsage.remove(key);
  }

  private prune(account: string, now: number): void {
    const oldestKept = dayOf(now - (limits.dailyUsageDays - 1) * dayMs);
    const expired = [...this.dbs.dailyUsage.getKeys({ start: [account], end: [account, oldestKept] })];
    for (const key of expired) this.dbs.dailyUsage.remove(key);
  }
}

/**
 * The day a change of `month`'s count made at `now` is counted on: today, or the month's last day
 * for a reservation of a month that has just ended; a give-back takes from this day backwards.
 */
export function countedDay(month: string, now: number): string {
  const today = dayOf(now);
  return today.startsWith(month) ? today : lastDayOf(month);
}

function lastDayOf(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number);
  return dayOf(Date.UTC(year!, monthNumber!, 1) - dayMs);
}
