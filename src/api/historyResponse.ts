// The answer to a history request (docs/history.md#api): each reference as the search gives it
// (platform, type, identifier, status), then each datapoint's series over the range with its
// first, last and change; as JSON, or as CSV rows for spreadsheets (docs/history.md#csv).
import type { ViewSource } from '../resources/view.js';
import { type DatapointGroup, type HistorySource, type SeriesPoint, type SeriesValue, startOfDay } from '../resources/historySource.js';
import type { HistoryRequest } from './historyRequest.js';
import { renderSearchResponse } from './searchResponse.js';

export interface HistoryDatapoint {
  group: DatapointGroup;
  name: string;
  series: Array<{ at: string; value: SeriesValue }>;
  first: SeriesValue;
  last: SeriesValue;
  /** last - first for numbers; null otherwise */
  change: number | null;
}

export interface HistoryEntry {
  platform: string;
  type: string;
  identifier: string;
  status: string;
  datapoints: HistoryDatapoint[];
}

export interface RenderedHistory {
  entries: HistoryEntry[];
  /** Keys to hand to ResourceDemand.wanted, as a search of the same references would. */
  wanted: string[] | undefined;
}

const dayMs = 86_400_000;

export function historyOf(request: HistoryRequest, views: ViewSource, series: HistorySource, now: number): RenderedHistory {
  // The search's own answer gives each reference's status and current datapoints, and what to collect.
  const search = renderSearchResponse(request.resources, views, now);
  const answered = (JSON.parse(search.body.toString()) as { data: Array<Record<string, unknown>> }).data;
  const timeText = request.interval === 'day' ? dayNamer() : (at: number) => new Date(at).toISOString();
  const entries = request.resources.map((resource, index): HistoryEntry => {
    const current = answered[index]!;
    const datapoints = series.read(resource.key, request.from, request.to).flatMap((recorded) => {
      const seen = (current[recorded.group] as Record<string, { collected_at?: string }> | undefined)?.[recorded.name]?.collected_at;
      const points =
        request.interval === 'day' ? daily(recorded, request, seen) : withOpening(recorded.before, recorded.points, request.from);
      if (points.length === 0) return [];
      const first = points[0]!.value;
      const last = points.at(-1)!.value;
      return [
        {
          group: recorded.group,
          name: recorded.name,
          series: points.map((point) => ({ at: timeText(point.at), value: point.value })),
          first,
          last,
          change: changeOver(first, last),
        },
      ];
    });
    return {
      platform: resource.platform,
      type: resource.type,
      identifier: resource.identifier,
      status: String(current.status),
      datapoints,
    };
  });
  return { entries, wanted: search.wanted };
}

/** The recorded points, opened by the value in force at `from` when it was recorded before it. */
function withOpening(before: SeriesPoint | undefined, points: SeriesPoint[], from: number): SeriesPoint[] {
  return before ? [{ at: from, value: before.value }, ...points] : points;
}

/**
 * One point per UTC day of the range, each the day's last value, from the first day a value is
 * known to the day it was last seen (`lastSeen`: its snapshot's collected_at, else its last point).
 */
export function daily(
  { before, points }: { before: SeriesPoint | undefined; points: SeriesPoint[] },
  range: { from: number; to: number },
  seen: string | undefined,
): SeriesPoint[] {
  const known = withOpening(before, points, range.from);
  if (known.length === 0) return [];
  const lastDay = startOfDay(Math.min(range.to, lastSeen(known, seen)));
  const days: SeriesPoint[] = [];
  let next = 0;
  let value: SeriesValue = known[0]!.value;
  for (let day = startOfDay(known[0]!.at); day <= lastDay; day += dayMs) {
    while (next < known.length && known[next]!.at < day + dayMs) value = known[next++]!.value;
    days.push({ at: day, value });
  }
  return days;
}

/** When a series was last seen: its datapoint's collected_at, else its last point. */
export function lastSeen(points: SeriesPoint[], seen: string | undefined): number {
  return Math.max(seen ? Date.parse(seen) : 0, points.at(-1)?.at ?? 0);
}

/**
 * A request's UTC days as ISO dates, each written once: every series of the answer shares the
 * same days, and toISOString per point was most of an answer's cost (docs/history.md#read-and-commit-cost).
 */
export function dayNamer(): (at: number) => string {
  const names = new Map<number, string>();
  return (at) => {
    let name = names.get(at);
    if (name === undefined) {
      name = new Date(at).toISOString().slice(0, 10);
      names.set(at, name);
    }
    return name;
  };
}

/**
 * The answer as JSON, written piece by piece: the same text as JSON.stringify of the entries
 * grouped by `metrics` and `attributes`, at a fraction of its cost on thousands of points.
 */
export function historyJson(entries: HistoryEntry[]): string {
  return historyJsonOf(
    entries.map(({ datapoints, ...reference }) => ({
      reference: JSON.stringify(reference).slice(0, -1),
      datapoints: datapoints.map(({ series, ...datapoint }) => ({ ...datapoint, seriesJson: seriesJson(series) })),
    })),
  );
}

/** A datapoint of the answer with its series already JSON: its points' objects, comma-separated. */
export interface RenderedDatapoint extends Omit<HistoryDatapoint, 'series'> {
  seriesJson: string;
}

/**
 * The answer's JSON from each entry's reference (its object's text up to its closing brace) and
 * datapoints, by `+=` alone: a join would copy each series' text once more.
 */
export function historyJsonOf(entries: Array<{ reference: string; datapoints: RenderedDatapoint[] }>): string {
  let body = '{"data":[';
  for (let index = 0; index < entries.length; index++) {
    const { reference, datapoints } = entries[index]!;
    if (index > 0) body += ',';
    body += reference;
    for (const group of ['metrics', 'attributes'] as const) {
      let named = 0;
      for (const datapoint of datapoints) {
        if (datapoint.group !== group) continue;
        body += named++ === 0 ? `,"${group}":{` : ',';
        body += datapointJson(datapoint);
      }
      if (named > 0) body += '}';
    }
    body += '}';
  }
  return `${body}]}`;
}

function seriesJson(series: HistoryDatapoint['series']): string {
  let points = '';
  for (let index = 0; index < series.length; index++)
    points += `${index > 0 ? ',' : ''}${pointJson(series[index]!.at, series[index]!.value)}`;
  return points;
}

/** One point of a series as JSON; `at` is an ISO date or date-time: nothing in it needs escaping. */
export function pointJson(at: string, value: SeriesValue): string {
  return `{"at":"${at}","value":${typeof value === 'number' ? value : JSON.stringify(value)}}`;
}

function datapointJson({ name, seriesJson, first, last, change }: RenderedDatapoint): string {
  return `${JSON.stringify(name)}:{"series":[${seriesJson}],"first":${JSON.stringify(first)},"last":${JSON.stringify(last)},"change":${JSON.stringify(change)}}`;
}

/** last - first when both are numbers, else null. */
export function changeOver(first: SeriesValue, last: SeriesValue): number | null {
  return typeof first === 'number' && typeof last === 'number' ? last - first : null;
}

const csvHeader = 'platform,type,identifier,status,group,datapoint,at,value';

/** One row per reference, datapoint and point; a reference without a series has one row of its own (RFC 4180). */
export function historyCsv(entries: HistoryEntry[]): string {
  const rows = [csvHeader];
  for (const entry of entries) {
    const reference = [entry.platform, entry.type, entry.identifier, entry.status];
    if (entry.datapoints.length === 0) rows.push(csvRow([...reference, '', '', '', '']));
    for (const { group, name, series } of entry.datapoints) {
      for (const { at, value } of series) rows.push(csvRow([...reference, group, name, at, value === null ? '' : String(value)]));
    }
  }
  return `${rows.join('\r\n')}\r\n`;
}

/** RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvRow = (fields: string[]) => fields.map(csvField).join(',');
