// What the history answer reads (docs/history.md#api): the series a resource store records, as
// the API and HTTP layers see them (they reach the store only through resources/).
import type { HistoryPolicy } from '../config.js';
import type { RecordedSeries, SeriesPoint } from '../store/datapointSeries.js';

export type { DatapointGroup, RecordedSeries, SeriesPoint, SeriesValue } from '../store/datapointSeries.js';
export { startOfDay } from '../store/datapointSeries.js';
// The bounded map the store keeps its recent views in, for the daily answers' rendered days (api/dailyHistory.ts).
export { RecentMap } from '../store/recentMap.js';

export interface HistorySource {
  readonly recording: boolean;
  readonly policy: HistoryPolicy;
  /** The earliest time an answer may reach back to at `now`. */
  retainedFrom(now: number): number;
  /** Every series of the resource with its points in the range, and the value in force before it. */
  read(key: string, from: number, to: number): Array<RecordedSeries & { before: SeriesPoint | undefined }>;
  /** As `read`, seeing every commit made before the call, also by another thread. */
  readLatest(key: string, from: number, to: number): Array<RecordedSeries & { before: SeriesPoint | undefined }>;
}
