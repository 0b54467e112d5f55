// POST /api/v1/resources/history (docs/history.md#api): admitted, counted and refused exactly as
// a search is, by the search's own route; only the answer to an admitted body differs.
import { limits } from '../config.js';
import { DailyHistory } from '../api/dailyHistory.js';
import { validateHistoryText } from '../api/historyRequest.js';
import { historyCsv, historyJson, historyOf } from '../api/historyResponse.js';
import type { HistorySource } from '../resources/historySource.js';
import type { BodyResult } from './body.js';
import { apiErrors } from './errors.js';
import type { Reply } from './reply.js';
import { searchRoute, type SearchRouteDeps } from './searchRoute.js';

export const historyPath = '/api/v1/resources/history';

export function historyRoute(deps: SearchRouteDeps, series: HistorySource) {
  const days = new DailyHistory(series);
  return searchRoute(deps, (req) => {
    const csv = wantsCsv(req.getHeader('accept'));
    return (body) => historyAnswer(body, { deps, series, days }, csv);
  });
}

/** CSV only when asked for by name: a client that accepts anything gets the API's JSON. */
export function wantsCsv(accept: string): boolean {
  return /(^|,)\s*text\/csv\s*(;|,|$)/i.test(accept);
}

interface HistorySources {
  deps: SearchRouteDeps;
  series: HistorySource;
  /** The daily JSON answers, from each resource's days rendered once (docs/history.md#daily-answers-from-text). */
  days: DailyHistory;
}

function historyAnswer(body: BodyResult, { deps, series, days }: HistorySources, csv: boolean): Reply {
  if (body.kind === 'tooLarge') return apiErrors.bodyTooLarge(limits.maxBodyBytes, body.drained);
  const now = deps.now();
  const validation = validateHistoryText(body.text, now, series);
  if (!validation.ok) return apiErrors.invalid(validation.errors);
  const fromText = !csv && validation.request.interval === 'day' ? days.answer(validation.request, deps.views, now) : undefined;
  if (fromText) {
    if (fromText.wanted) deps.demand.wanted(fromText.wanted, now);
    return { status: '200 OK', body: fromText.body };
  }
  const { entries, wanted } = historyOf(validation.request, deps.views, series, now);
  // As a search: the answer is rendered first, then demand is told (docs/architecture.md#reads-are-reads).
  if (wanted) deps.demand.wanted(wanted, now);
  return csv
    ? { status: '200 OK', body: historyCsv(entries), contentType: 'text/csv; charset=utf-8' }
    : { status: '200 OK', body: historyJson(entries) };
}
