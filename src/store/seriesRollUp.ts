// Rolls detail older than the detail window into one point per UTC day and drops days past the
// retention (docs/history.md#roll-up), in slices of a few dozen points so that a search or a
// commit on the same thread waits behind one slice at most.
import { historyRollUp } from '../config.js';
import { type DatapointSeries, type SeriesKey, startOfDay } from './datapointSeries.js';
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
 * Whether `previous` goes once `current` follows it in key order: a point is dropped only for a
 * later point of the same series that stands in for it (the same old day, or past the retention
 * edge), so a series never loses the value it last had.
 */
export function rolledAway(previous: SeriesKey, current: SeriesKey, edges: RollUpEdges): boolean {
  const [resource, group, name, was] = previous;
  const [nextResource, nextGroup, nextName, at] = current;
  if (resource !== nextResource || group !== nextGroup || name !== nextName) return false;
  if (at <= edges.retainedFrom) return true;
  return was < edges.detailFrom && startOfDay(was) === startOfDay(at);
}

export class SeriesRollUp {
  /** The last key a slice read: the next slice starts after it. */
  private previous: SeriesKey | undefined;
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
   * Reads at most `limit` points after the last slice's and removes those rolled away; resolves
   * true when it reached the end of every series (the next slice starts a new pass).
   */
  async slice(limit: number = historyRollUp.sliceEntries): Promise<boolean> {
    const edges = rollUpEdges(this.series, this.now());
    const removals: Array<Promise<boolean>> = [];
    let read = 0;
    for (const key of this.dbs.series.getKeys({ start: this.previous ?? [''], limit: limit + 1 })) {
      if (this.previous && sameKey(key, this.previous)) continue;
      if (this.previous && rolledAway(this.previous, key, edges)) removals.push(this.dbs.series.remove(this.previous));
      this.previous = key;
      if (++read === limit) break;
    }
    await Promise.all(removals);
    if (read < limit) this.previous = undefined;
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

function sameKey(a: SeriesKey, b: SeriesKey): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
}
