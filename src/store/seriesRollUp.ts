// Packs the loose points of finished days into their months, rolls old detail into one point per UTC day and
// drops days past the retention, in slices a search or commit on the thread waits behind at most (docs/history.md#roll-up).
import { historyRollUp } from '../config.js';
import {
  type DatapointSeries,
  type LooseKey,
  type SeriesKey,
  type SeriesMonth,
  type SeriesPoint,
  startOfDay,
  startOfMonth,
} from './datapointSeries.js';
import type { Databases } from './environment.js';

export interface RollUpEdges {
  /** Points before this are detail past its window: each UTC day keeps its last one. */
  detailFrom: number;
  /** Points before this are past the retention: only the newest of them stays, as the value in force at the edge. */
  retainedFrom: number;
}

export function rollUpEdges(series: DatapointSeries, now: number): RollUpEdges {
  return { detailFrom: now - series.policy.detailMs, retainedFrom: series.retainedFrom(now) };
}

/**
 * Whether the point at `was` goes once the point at `at` follows it in the same series: a point
 * is dropped only for a later one that stands in for it (the same old day, or past the retention
 * edge), so a series never loses the value it last had.
 */
export function rolledAway(was: number, at: number, edges: RollUpEdges): boolean {
  if (at <= edges.retainedFrom) return true;
  return was < edges.detailFrom && startOfDay(was) === startOfDay(at);
}

/** The month's points that stay; the same array when none goes. */
export function rolledMonth(month: number, [offsets, values]: SeriesMonth, edges: RollUpEdges): SeriesMonth {
  const kept: SeriesMonth = [[], []];
  for (let index = 0; index < offsets.length; index++) {
    const next = offsets[index + 1];
    if (next !== undefined && rolledAway(month + offsets[index]!, month + next, edges)) continue;
    kept[0].push(offsets[index]!);
    kept[1].push(values[index]!);
  }
  return kept[0].length === offsets.length ? [offsets, values] : kept;
}

export class SeriesRollUp {
  /** The last month a slice read: the next slice starts after it. */
  private previous: SeriesKey | undefined;
  /** The last loose entry a slice read, while a pass is packing them: the next slice starts after it. */
  private previousLoose: LooseKey | undefined;
  /** Whether the pass is still packing loose entries; it reads months once it has packed every one. */
  private packing = true;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly dbs: Databases,
    private readonly series: DatapointSeries,
    private readonly now: () => number,
  ) {}

  /** Runs passes forever, one slice per timer turn, until `stop`. */
  start(): void {
    this.schedule(historyRollUp.sliceGapMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /**
   * Packs at most `historyRollUp.sliceLoose` loose entries into their months while the pass is
   * packing; once every one is packed, reads at most `limit` months of series after the last
   * slice's and rewrites those whose points roll away. One write transaction, so that a commit
   * writing meanwhile is read with what it wrote; resolves true when it reached the end of every
   * series (the next slice starts a new pass).
   */
  async slice(limit: number = historyRollUp.sliceMonths): Promise<boolean> {
    const now = this.now();
    const edges = rollUpEdges(this.series, now);
    // A finished day's points, and any older than the detail window, are ready to roll.
    const packBefore = Math.max(startOfDay(now), edges.detailFrom);
    let passEnded = false;
    await this.dbs.root.transaction(() => {
      if (this.packing) {
        this.packing = this.pack(packBefore, historyRollUp.sliceLoose);
        if (this.packing) return;
      }
      passEnded = this.rollMonths(edges, limit);
    });
    if (passEnded) {
      this.previous = undefined;
      this.packing = true;
    }
    return passEnded;
  }

  /**
   * Appends the points of the loose entries older than `before` to their months, each month read
   * and written once for all of them (a resource's entries are adjacent: its day's collections),
   * and removes the entries; true while entries are left to read.
   */
  private pack(before: number, limit: number): boolean {
    const { loosePoints } = this.dbs;
    const after = this.previousLoose;
    // Read to the end before writing: no cursor stays open across the writes.
    const entries = [...loosePoints.getRange({ start: after ?? [''], limit: limit + 1 })]
      .filter(({ key }) => !after || key[0] !== after[0] || key[1] !== after[1])
      .slice(0, limit);
    const months = new Map<string, { key: SeriesKey; points: SeriesPoint[] }>();
    for (const { key, value } of entries) {
      const [resource, at] = key;
      if (at >= before) continue;
      for (const [group, name, pointValue] of value) {
        const monthKey: SeriesKey = [resource, group, name, startOfMonth(at)];
        const id = monthKey.join('\n');
        let month = months.get(id);
        if (!month) {
          month = { key: monthKey, points: [] };
          months.set(id, month);
        }
        // A resource's entries arrive in time order: so do each month's points.
        month.points.push({ at, value: pointValue });
      }
      void loosePoints.remove(key);
    }
    for (const { key, points } of months.values()) this.series.appendToMonth(key, points);
    this.previousLoose = entries.length < limit ? undefined : entries.at(-1)!.key;
    return entries.length === limit;
  }

  /** Rolls at most `limit` months after the last slice's; true when it reached the end of every series. */
  private rollMonths(edges: RollUpEdges, limit: number): boolean {
    const { series } = this.dbs;
    const after = this.previous;
    const months = [...series.getRange({ start: after ?? [''], limit: limit + 1 })].filter((entry) => !after || !sameKey(entry.key, after));
    let previous = after;
    let read = 0;
    for (const { key, value } of months.slice(0, limit)) {
      const month = key[3];
      // A month before is past the retention as a whole when this one's first point stands in for its last.
      if (previous && sameSeries(previous, key) && month + value[0][0]! <= edges.retainedFrom) void series.remove(previous);
      const kept = rolledMonth(month, value, edges);
      if (kept[0] !== value[0]) void series.put(key, kept);
      previous = key;
      read++;
    }
    this.previous = previous;
    return read < limit;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.slice().then(
        (passEnded) => this.schedule(passEnded ? historyRollUp.passMs : historyRollUp.sliceGapMs),
        // A failed slice is tried again on the next pass; the data it left is still correct.
        () => this.schedule(historyRollUp.passMs),
      );
    }, delayMs);
    this.timer.unref();
  }
}

function sameSeries(a: SeriesKey, b: SeriesKey): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
}

function sameKey(a: SeriesKey, b: SeriesKey): boolean {
  return sameSeries(a, b) && a[3] === b[3];
}
