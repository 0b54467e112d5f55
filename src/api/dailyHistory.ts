// The daily JSON answer assembled from text: each resource's days rendered once and kept while its view stays
// the same, then cut to each answer's range (docs/history.md#daily-answers-from-text).
import { type DatapointGroup, type HistorySource, RecentMap, type SeriesValue, startOfDay } from '../resources/historySource.js';
import { pendingView, type ResourceView, type ViewSource, wantedAt } from '../resources/view.js';
import { AnswerBytes } from './answerBytes.js';
import { changeOver, daily, dayNamer, lastSeen, pointJson } from './historyResponse.js';
import type { HistoryRequest } from './historyRequest.js';

/** One datapoint's days as JSON: day `index` after `firstDay` is `text` from byte `starts[index]`, its value `values[index]`. */
interface DaysText {
  group: DatapointGroup;
  /** `"name":{"series":[`: what an answer writes before the days. */
  opening: string;
  firstDay: number;
  /** The days' JSON as UTF-8, written into an answer as it is: no string for uWS to encode per answer. */
  text: Buffer;
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
  /** Its status as JSON (with its quotes). */
  statusJson: string;
  /** The retention edge the days were read from: an answer reaching further back is rendered from the points. */
  from: number;
  series: DaysText[];
  /**
   * The entry last written for it, as bytes: a daily range gives the same cuts all day until the
   * next commit renders the days again, so an answer asking for it again copies it whole.
   */
  lastEntry: { head: string; cuts: DaysCut[]; bytes: Buffer } | undefined;
}

const dayMs = 86_400_000;
/** Resources kept per generation (two generations): at 400 days of 3 counts, ~55 KB each, and up to ~40 KB more for the last entry. */
const resourcesKept = 256;

export class DailyHistory {
  private readonly kept = new RecentMap<string, ResourceDays>(resourcesKept);
  private readonly bytes = new AnswerBytes(131_072);

  constructor(private readonly series: HistorySource) {}

  /**
   * The JSON answer of a daily request as UTF-8, and the keys a search of its references would
   * ask for; undefined when a series' days cannot be cut from the kept text (`cutDays`) or the
   * range reaches further back than they were read: the caller renders the answer from the
   * points. The body is a view of a buffer the next answer reuses: write it before then.
   */
  answer(request: HistoryRequest, views: ViewSource, now: number): { body: Buffer; wanted: string[] | undefined } | undefined {
    const entries: Array<{ head: string; days: ResourceDays; cuts: DaysCut[] }> = [];
    let wanted: string[] | undefined;
    for (const resource of request.resources) {
      const view = views.view(resource.key);
      // As historyOf: what to collect is what the search's own answer would ask for.
      if (wantedAt(view, now)) {
        wanted ??= [];
        wanted.push(resource.key);
      }
      const days = this.daysOf(resource.key, view ?? pendingView, now);
      if (days.from > request.from) return undefined;
      const cuts: DaysCut[] = [];
      for (const series of days.series) {
        const cut = cutDays(series, request);
        if (cut === 'points') return undefined;
        if (cut) cuts.push(cut);
      }
      entries.push({ head: resource.head, days, cuts });
    }
    return { body: this.write(entries), wanted };
  }

  /**
   * The answer's bytes: the same text as historyJsonOf, each entry copied whole when it is the
   * one last written for its resource, else written (and kept) from its series' kept days.
   */
  private write(entries: Array<{ head: string; days: ResourceDays; cuts: DaysCut[] }>): Buffer {
    const bytes = this.bytes;
    bytes.begin();
    bytes.write('{"data":[');
    for (let index = 0; index < entries.length; index++) {
      const { head, days, cuts } = entries[index]!;
      if (index > 0) bytes.write(',');
      const kept = days.lastEntry;
      if (kept !== undefined && kept.head === head && sameCuts(kept.cuts, cuts)) {
        bytes.copy(kept.bytes);
        continue;
      }
      const start = bytes.written;
      writeEntry(bytes, head, days, cuts);
      days.lastEntry = { head, cuts, bytes: bytes.keep(start) };
    }
    bytes.write(']}');
    return bytes.end();
  }

  private daysOf(key: string, view: ResourceView, now: number): ResourceDays {
    const kept = this.kept.get(key);
    if (kept?.entryEnd === view.entryEnd) return kept;
    const days = this.render(key, view.entryEnd, now);
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
      // Every character is ASCII (dates, numbers, true, false, null): a character's offset is its byte's.
      const starts: number[] = [];
      let start = 0;
      for (const item of items) {
        starts.push(start);
        start += item.length + 1;
      }
      const known = recorded.before ? [recorded.before, ...recorded.points] : recorded.points;
      return [
        {
          group: recorded.group,
          opening: `${JSON.stringify(recorded.name)}:{"series":[`,
          firstDay: points[0]!.at,
          text: Buffer.from(items.join(',')),
          starts,
          values: points.map((point) => point.value),
          lastSeen: lastSeen(known, seen),
          seen: seen ? Date.parse(seen) : 0,
          firstPointAt: known[0]!.at,
          lastPointAt: known.at(-1)!.at,
        },
      ];
    });
    return { entryEnd, statusJson: JSON.stringify(current.status), from: range.from, series, lastEntry: undefined };
  }
}

/** One reference's entry: its head and status, then its series by group, each cut's days copied from its kept bytes. */
function writeEntry(bytes: AnswerBytes, head: string, days: ResourceDays, cuts: DaysCut[]): void {
  bytes.write(head);
  bytes.write(',"status":');
  bytes.write(days.statusJson);
  // The kept series are in a read's order, metrics before attributes: each group is one run.
  let group: string | undefined;
  for (const cut of cuts) {
    const { series } = cut;
    if (series.group !== group) {
      bytes.write(group === undefined ? ',"' : '},"');
      bytes.write(series.group);
      bytes.write('":{');
      group = series.group;
    } else bytes.write(',');
    bytes.write(series.opening);
    if (cut.end > cut.start) bytes.copy(series.text, cut.start, cut.end);
    if (cut.carried !== '') {
      if (cut.end > cut.start) bytes.write(',');
      bytes.write(cut.carried);
    }
    bytes.write('],"first":');
    bytes.write(valueJson(cut.first));
    bytes.write(',"last":');
    bytes.write(valueJson(cut.last));
    bytes.write(',"change":');
    bytes.write(String(changeOver(cut.first, cut.last)));
    bytes.write('}');
  }
  bytes.write(group === undefined ? '}' : '}}');
}

/** Whether two answers cut the same days of the same series (so their entries' bytes are the same). */
function sameCuts(kept: DaysCut[], cuts: DaysCut[]): boolean {
  if (kept.length !== cuts.length) return false;
  for (let index = 0; index < cuts.length; index++) {
    const a = kept[index]!;
    const b = cuts[index]!;
    if (a.series !== b.series || a.start !== b.start || a.end !== b.end || a.carried !== b.carried) return false;
    if (a.first !== b.first || a.last !== b.last) return false;
  }
  return true;
}

/** A series' days in a request's range: bytes `start` to `end` of its text, then `carried` days as JSON. */
interface DaysCut {
  series: DaysText;
  start: number;
  end: number;
  /** The days past the text, when the range opens after the last sight: the value in force carries on. */
  carried: string;
  first: SeriesValue;
  last: SeriesValue;
}

/**
 * The series' days in the request's range, cut from its text as `daily` would render them from
 * the points read for that range; 'points' when they cannot be told from whole days.
 */
function cutDays(series: DaysText, request: HistoryRequest): DaysCut | undefined | 'points' {
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
  const start = first < textDays ? series.starts[first]! : 0;
  const end = first < textDays ? (last + 1 < textDays ? series.starts[last + 1]! - 1 : series.text.length) : 0;
  let carried = '';
  const carriedValue = series.values[textDays - 1]!;
  for (let day = Math.max(first, textDays); day <= last; day++) {
    if (carried.length > 0) carried += ',';
    carried += pointJson(new Date(series.firstDay + day * dayMs).toISOString().slice(0, 10), carriedValue);
  }
  return {
    series,
    start,
    end,
    carried,
    first: series.values[Math.min(first, textDays - 1)]!,
    last: series.values[Math.min(last, textDays - 1)]!,
  };
}

/** A value as JSON: a number as its text, anything else as JSON.stringify writes it. */
function valueJson(value: SeriesValue): string {
  return typeof value === 'number' ? `${value}` : JSON.stringify(value);
}
