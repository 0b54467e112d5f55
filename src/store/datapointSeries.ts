// Every resource's datapoints over time (docs/history.md#what-is-recorded): a commit that carries a
// collected value records it in the same transaction, keyed so that a resource's series, each
// series' points and the points' times sort together. An unchanged value writes nothing: the
// series' last-seen time is the snapshot's `collected_at`.
import type { ResourceContext } from '../../machines/resource.js';
import type { HistoryPolicy } from '../config.js';
import type { Databases } from './environment.js';
import type { DatapointGroup, SeriesKey, SeriesValue } from './records.js';

export type { DatapointGroup, SeriesKey, SeriesValue };

export interface SeriesPoint {
  at: number;
  value: SeriesValue;
}

/** One datapoint's recorded points of a resource, oldest first. */
export interface RecordedSeries {
  group: DatapointGroup;
  name: string;
  points: SeriesPoint[];
}

export const datapointGroups: readonly DatapointGroup[] = ['metrics', 'attributes'];
const dayMs = 86_400_000;
// Above every datapoint name (names are ASCII words): the end of a group's key range.
const afterEveryName = '\u{10ffff}';

export class DatapointSeries {
  constructor(
    private readonly dbs: Databases,
    readonly policy: HistoryPolicy,
  ) {}

  get recording(): boolean {
    return this.policy.days > 0;
  }

  /**
   * Inside the commit's write transaction: the values `next` collected that differ from
   * `previous`'s. A commit that collected nothing (a failure, a lease, a deferral) keeps the
   * previous `lastSuccessAt` and records nothing.
   */
  record(key: string, previous: ResourceContext | undefined, next: ResourceContext): void {
    const at = next.lastSuccessAt;
    if (!this.recording || at === null || at === previous?.lastSuccessAt) return;
    for (const group of datapointGroups) {
      const points = next[group];
      if (!points) continue;
      const before = previous?.[group];
      for (const name in points) {
        const value = points[name]!.value;
        if (before?.[name]?.value === value) continue;
        void this.dbs.series.put([key, group, name, at], value);
      }
    }
  }

  /** Every series of the resource with its points from `from` to `to` (inclusive), oldest first. */
  read(key: string, from: number, to: number): Array<RecordedSeries & { before: SeriesPoint | undefined }> {
    const found: Array<RecordedSeries & { before: SeriesPoint | undefined }> = [];
    for (const group of datapointGroups) {
      let current: (RecordedSeries & { before: SeriesPoint | undefined }) | undefined;
      for (const { key: pointKey, value } of this.dbs.series.getRange({ start: [key, group], end: [key, group, afterEveryName] })) {
        const [, , name, at] = pointKey;
        if (at > to) continue;
        if (current?.name !== name) {
          current = { group, name, points: [], before: undefined };
          found.push(current);
        }
        // The value in force when the range begins: the last point before it.
        if (at < from) current.before = { at, value };
        else current.points.push({ at, value });
      }
    }
    return found;
  }

  /** The earliest time a history answer may reach back to at `now`: the retention's edge. */
  retainedFrom(now: number): number {
    return startOfDay(now) - this.policy.days * dayMs;
  }
}

/** The UTC midnight that begins the day of `at`. */
export function startOfDay(at: number): number {
  return Math.floor(at / dayMs) * dayMs;
}
