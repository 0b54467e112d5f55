// The daily JSON answer assembled from text: each resource's days rendered once and kept while its view stays
// the same, then cut to each answer's range (docs/history.md#daily-answers-from-text).
import { type HistorySource, RecentMap, type SeriesValue, startOfDay } from '../resources/historySource.js';
import { pendingView, type ViewSource } from '../resources/view.js';
import { changeOver, daily, dayNamer, historyJsonOf, lastSeen, pointJson, type RenderedDatapoint } from './historyResponse.js';
import type { HistoryRequest } from './historyRequest.js';
import { renderSearchResponse } from './searchResponse.js';

/** One datapoint's days as JSON: day `index` after `firstDay` is `text` from `starts[index]`, its value `values[index]`. */
interface DaysText {
  group: RenderedDatapoint['group'];
  name: string;
  firstDay: number;
  text: string;
  starts: number[];
  values: SeriesValue[];
  /** The series' last-seen time: a range that ends before it inside a day cannot be cut from whole days. */
  lastSeen: number;
  /** Its datapoint's collected_at (0 when its snapshot no longer has it), its first and last recorded points. */
  seen: number;
  firstPointAt: number;
  lastPointAt: number;
}

/** A resource's days, valid while its view's text is `entryEnd` (every commit that records a point changes its collected_at). */
interface ResourceDays {
  entryEnd: string;
  status: string;
  /** The retention edge the days were read from: an answer reaching further back is rendered from the points. */
  from: number;
  series: DaysText[];
}

const dayMs = 86_400_000;
/** Resources kept per generation (two generations): at 400 days of 3 counts, ~55 KB each. */
const resourcesKept = 256;

export class DailyHistory {
  private readonly kept = new RecentMap<string, ResourceDays>(resourcesKept);

  constructor(private readonly series: HistorySource) {}

  /**
   * The JSON answer of a daily request and the keys a search of its references would ask for;
   * undefined when a series' days cannot be cut from the kept text (`cutDays`) or the range
   * reaches further back than they were read: the caller renders the answer from the points.
   */
  answer(request: HistoryRequest, views: ViewSource, now: number): { body: string; wanted: string[] | undefined } | undefined {
    const entries: Array<{ reference: string; datapoints: RenderedDatapoint[] }> = [];
    for (const resource of request.resources) {
      const days = this.daysOf(resource.key, views, now);
      if (days.from > request.from) return undefined;
      const datapoints: RenderedDatapoint[] = [];
      for (const series of days.series) {
        const cut = cutDays(series, request);
        if (cut === 'points') return undefined;
        if (cut) datapoints.push(cut);
      }
      entries.push({ reference: `${resource.head},"status":${JSON.stringify(days.status)}`, datapoints });
    }
    // As historyOf: what to collect is what the search's own answer would ask for.
    return { body: historyJsonOf(entries), wanted: renderSearchResponse(request.resources, views, now).wanted };
  }

  private daysOf(key: string, views: ViewSource, now: number): ResourceDays {
    const { entryEnd } = views.view(key) ?? pendingView;
    const kept = this.kept.get(key);
    if (kept?.entryEnd === entryEnd) return kept;
    const days = this.render(key, entryEnd, now);
    this.kept.set(key, days);
    return days;
  }

  private render(key: string, entryEnd: string, now: number): ResourceDays {
    // The view's text is the search entry's end: its status and each datapoint's collected_at.
    const current = JSON.parse(`{${entryEnd.slice(1)}`) as Record<string, unknown> & { status: string };
    const range = { from: this.series.retainedFrom(now), to: Number.MAX_SAFE_INTEGER };
    const dayName = dayNamer();
    // Kept until the view changes: read with every commit the view shows, whichever thread made it.
    const series = this.series.readLatest(key, range.from, range.to).flatMap((recorded): DaysText[] => {
      const seen = (current[recorded.group] as Record<string, { collected_at?: string }> | undefined)?.[recorded.name]?.collected_at;
      const points = daily(recorded, range, seen);
      if (points.length === 0) return [];
      const items = points.map((point) => pointJson(dayName(point.at), point.value));
      const starts: number[] = [];
      let start = 0;
      for (const item of items) {
        starts.push(start);
        start += item.length + 1;
      }
      // Joined, the text is one flat string: an answer's cut of it is a slice, not a copy.
      const text = items.join(',');
      const known = recorded.before ? [recorded.before, ...recorded.points] : recorded.points;
      return [
        {
          group: recorded.group,
          name: recorded.name,
          firstDay: points[0]!.at,
          text,
          starts,
          values: points.map((point) => point.value),
          lastSeen: lastSeen(known, seen),
          seen: seen ? Date.parse(seen) : 0,
          firstPointAt: known[0]!.at,
          lastPointAt: known.at(-1)!.at,
        },
      ];
    });
    return { entryEnd, status: current.status, from: range.from, series };
  }
}

/**
 * The series' days in the request's range, cut from its text as `daily` would render them from
 * the points read for that range; 'points' when they cannot be told from whole days.
 */
function cutDays(series: DaysText, request: HistoryRequest): RenderedDatapoint | undefined | 'points' {
  // The day's value is its last; a range ending inside a day before the last sight takes the value at its end.
  if ((request.to + 1) % dayMs !== 0 && request.to < series.lastSeen) return 'points';
  // A datapoint its snapshot no longer has was last seen at its last point up to the range's end.
  if (request.to < series.lastPointAt && series.seen < series.lastPointAt) return 'points';
  if (series.firstPointAt > request.to) return undefined;
  // As `daily` over the range's points: the opening at `from` and the last point in the range count as seen.
  const seen = Math.max(
    series.seen,
    series.firstPointAt < request.from ? request.from : 0,
    series.lastPointAt >= request.from ? Math.min(series.lastPointAt, request.to) : 0,
  );
  const firstDay = Math.max(startOfDay(request.from), series.firstDay);
  const lastDay = startOfDay(Math.min(request.to, seen));
  if (firstDay > lastDay) return undefined;
  const textDays = series.values.length;
  const first = (firstDay - series.firstDay) / dayMs;
  const last = (lastDay - series.firstDay) / dayMs;
  let seriesJson =
    first < textDays ? series.text.slice(series.starts[first], last + 1 < textDays ? series.starts[last + 1]! - 1 : undefined) : '';
  // Past the text only when the range opens after the last sight: the value in force carries on.
  const carried = series.values[textDays - 1]!;
  for (let day = Math.max(first, textDays); day <= last; day++) {
    if (seriesJson.length > 0) seriesJson += ',';
    seriesJson += pointJson(new Date(series.firstDay + day * dayMs).toISOString().slice(0, 10), carried);
  }
  const firstValue = series.values[Math.min(first, textDays - 1)]!;
  const lastValue = series.values[Math.min(last, textDays - 1)]!;
  return {
    group: series.group,
    name: series.name,
    seriesJson,
    first: firstValue,
    last: lastValue,
    change: changeOver(firstValue, lastValue),
  };
}
