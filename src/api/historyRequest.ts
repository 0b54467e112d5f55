// A history request (docs/history.md#api): the search's references, validated with the search's
// messages, plus a range and an interval, each with its own message.
import type { HistorySource } from '../resources/historySource.js';
import { type RequestedResource, validateSearch, validateSearchText } from './validation.js';

export type HistoryInterval = 'day' | 'collection';

export interface HistoryRequest {
  resources: RequestedResource[];
  /** ms since the epoch, both inclusive */
  from: number;
  to: number;
  interval: HistoryInterval;
}

export type HistoryValidation = { ok: true; request: HistoryRequest } | { ok: false; errors: string[] };

const dayMs = 86_400_000;
/** Without `from`, an answer reaches back this far (docs/history.md#api). */
export const defaultHistoryRangeMs = 30 * dayMs;
const isoDate = /^\d{4}-\d{2}-\d{2}$/;
const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;
const intervals: readonly string[] = ['day', 'collection'];

export function validateHistoryText(text: string, now: number, series: HistorySource): HistoryValidation {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const search = validateSearchText(text);
    return { ok: false, errors: search.ok ? [] : search.errors };
  }
  const search = validateSearch(body);
  const errors = search.ok ? [] : [...search.errors];
  const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const from = time(fields.from, 'From', 'start', errors);
  const to = time(fields.to, 'To', 'end', errors);
  const interval = fields.interval ?? 'day';
  if (typeof interval !== 'string' || !intervals.includes(interval)) errors.push("Interval must be 'day' or 'collection'");
  const retainedFrom = series.retainedFrom(now);
  if (!series.recording) errors.push('History is not recorded on this server (it runs with --history-days 0)');
  const end = to ?? now;
  const start = from ?? Math.max(end - defaultHistoryRangeMs, retainedFrom);
  if (series.recording && start < retainedFrom) {
    errors.push(
      `From is before the history kept (${series.policy.days} days): give ${new Date(retainedFrom).toISOString().slice(0, 10)} or later`,
    );
  }
  if (start > end) errors.push('From must not be after to');
  if (!search.ok || errors.length > 0) return { ok: false, errors };
  return { ok: true, request: { resources: search.resources, from: start, to: end, interval: interval as HistoryInterval } };
}

/**
 * An ISO 8601 date (`2026-11-12`: its UTC day's first or last millisecond) or date-time with
 * its zone; undefined when absent.
 */
function time(value: unknown, name: string, edge: 'start' | 'end', errors: string[]): number | undefined {
  if (value === undefined || value === null) return undefined;
  const text = typeof value === 'string' ? value : '';
  const parsed = isoDate.test(text) || isoTime.test(text) ? Date.parse(isoDate.test(text) ? `${text}T00:00:00Z` : text) : Number.NaN;
  if (Number.isNaN(parsed)) {
    errors.push(`${name} must be an ISO 8601 date (2026-11-12) or date-time with its zone (2026-11-12T08:00:00Z)`);
    return undefined;
  }
  return isoDate.test(text) && edge === 'end' ? parsed + dayMs - 1 : parsed;
}
