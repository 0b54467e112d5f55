// Every resource's datapoints over time: a commit's changed values as one loose entry in its transaction
// (docs/history.md#what-is-recorded), packed by the roll-up into one entry per series and UTC month (docs/history.md#layout).
import type { ResourceContext } from '../../machines/resource.js';
import type { HistoryPolicy } from '../config.js';
import type { Databases } from './environment.js';
import type { DatapointGroup, LooseKey, LoosePoints, SeriesKey, SeriesMonth, SeriesValue } from './records.js';
import { startOfDay, startOfMonth } from './utcPeriods.js';

export type { DatapointGroup, LooseKey, LoosePoints, SeriesKey, SeriesMonth, SeriesValue };
export { startOfDay, startOfMonth };

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
   * `previous`'s, as one loose entry (a put, no read: docs/history.md#read-and-commit-cost). A
   * commit that collected nothing (a failure, a lease, a deferral) keeps the previous
   * `lastSuccessAt` and records nothing.
   */
  record(key: string, previous: ResourceContext | undefined, next: ResourceContext): void {
    const at = next.lastSuccessAt;
    if (!this.recording || at === null || at === previous?.lastSuccessAt) return;
    const changed: LoosePoints = [];
    for (const group of datapointGroups) {
      const points = next[group];
      if (!points) continue;
      const before = previous?.[group];
      for (const name in points) {
        const value = points[name]!.value;
        if (before?.[name]?.value !== value) changed.push([group, name, value]);
      }
    }
    if (changed.length > 0) void this.dbs.loosePoints.put([key, at], changed);
  }

  /** Adds a point to its month's entry, in time order; a point at a time already recorded replaces it. */
  append(key: string, group: DatapointGroup, name: string, point: SeriesPoint): void {
    this.appendToMonth([key, group, name, startOfMonth(point.at)], [point]);
  }

  /**
   * Adds points of one UTC month to its entry, read and written once: each in time order, a point
   * at a time already recorded replacing it.
   */
  appendToMonth(monthKey: SeriesKey, points: readonly SeriesPoint[]): void {
    const month = monthKey[3];
    const [offsets, values] = this.dbs.series.get(monthKey) ?? [[], []];
    for (const point of points) {
      const offset = point.at - month;
      // Collections arrive in time order: the point almost always goes last.
      let index = offsets.length;
      while (index > 0 && offsets[index - 1]! > offset) index--;
      if (offsets[index - 1] === offset) values[index - 1] = point.value;
      else {
        offsets.splice(index, 0, offset);
        values.splice(index, 0, point.value);
      }
    }
    void this.dbs.series.put(monthKey, [offsets, values]);
  }

  /** Every series of the resource with its points from `from` to `to` (inclusive), oldest first. */
  read(key: string, from: number, to: number): Array<RecordedSeries & { before: SeriesPoint | undefined }> {
    const found: Array<RecordedSeries & { before: SeriesPoint | undefined }> = [];
    for (const group of datapointGroups) {
      let current: (RecordedSeries & { before: SeriesPoint | undefined }) | undefined;
      for (const { key: monthKey, value } of this.dbs.series.getRange({ start: [key, group], end: [key, group, afterEveryName] })) {
        const [, , name, month] = monthKey;
        const [offsets, values] = value;
        for (let index = 0; index < offsets.length; index++) {
          const at = month + offsets[index]!;
          if (at > to) break;
          if (current?.name !== name) {
            current = { group, name, points: [], before: undefined };
            found.push(current);
          }
          // The value in force when the range begins: the last point before it.
          if (at < from) current.before = { at, value: values[index]! };
          else current.points.push({ at, value: values[index]! });
        }
      }
    }
    const loose = [...this.dbs.loosePoints.getRange({ start: [key, 0], end: [key, to + 1] })];
    return loose.length === 0 ? found : withLoosePoints(found, loose, from);
  }

  /**
   * As `read`, in a read transaction begun now: lmdb-js keeps a thread's read transaction until its
   * next timer turn, and a thread told of a commit by a message may still hold one begun before it.
   */
  readLatest(key: string, from: number, to: number): Array<RecordedSeries & { before: SeriesPoint | undefined }> {
    this.dbs.root.resetReadTxn();
    return this.read(key, from, to);
  }

  /** The earliest time a history answer may reach back to at `now`: the retention's edge. */
  retainedFrom(now: number): number {
    return startOfDay(now) - this.policy.days * dayMs;
  }
}

/**
 * The packed series with the loose points of the range added in their time's place (a loose
 * point at a millisecond also packed replaces it, as `append` would): usually the day's points,
 * after every packed one.
 */
function withLoosePoints(
  packed: Array<RecordedSeries & { before: SeriesPoint | undefined }>,
  loose: Iterable<{ key: LooseKey; value: LoosePoints }>,
  from: number,
): Array<RecordedSeries & { before: SeriesPoint | undefined }> {
  const series = new Map(packed.map((recorded) => [`${recorded.group} ${recorded.name}`, recorded]));
  for (const { key, value } of loose) {
    const at = key[1];
    for (const [group, name, pointValue] of value) {
      let recorded = series.get(`${group} ${name}`);
      if (!recorded) {
        recorded = { group, name, points: [], before: undefined };
        series.set(`${group} ${name}`, recorded);
      }
      const point = { at, value: pointValue };
      if (at >= from) insertPoint(recorded.points, point);
      else if (!recorded.before || recorded.before.at <= at) recorded.before = point;
    }
  }
  // In the order a read of months gives: metrics before attributes, then by datapoint name.
  return [...series.values()].sort(
    (a, b) => datapointGroups.indexOf(a.group) - datapointGroups.indexOf(b.group) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
}

function insertPoint(points: SeriesPoint[], point: SeriesPoint): void {
  let index = points.length;
  while (index > 0 && points[index - 1]!.at > point.at) index--;
  if (points[index - 1]?.at === point.at) points[index - 1] = point;
  else points.splice(index, 0, point);
}
