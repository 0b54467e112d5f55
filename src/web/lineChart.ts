// A count over time drawn on the server as SVG (docs/dashboard.md#resource-inspector): a step
// line, since a count holds its value until the next collection changes it; axes in people's
// units (docs/dashboard.md#peoples-units). Always shown with a table of the same points.
import { html, type SafeHtml } from './html.js';
import { compactNumber, dayAndTime, dayOfMonth } from './peopleUnits.js';

export interface TimePoint {
  at: number;
  value: number;
}

const width = 640;
const height = 200;
const left = 56;
const right = 12;
const top = 12;
const bottom = 28;
const dayMs = 86_400_000;

/** Between 1 and `count` + 1 round steps (1, 2 or 5 times a power of ten) across `span`. */
export function roundStep(span: number, count: number): number {
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
}

/** The value axis: round ticks from at or below the lowest value to at or above the highest. */
export function valueTicks(values: readonly number[]): { ticks: number[]; step: number } {
  const low = Math.min(...values);
  const high = Math.max(...values);
  const step = Math.max(1, roundStep(high - low || Math.max(1, Math.abs(high) / 10), 4));
  const first = Math.floor(low / step) * step;
  const last = Math.max(first + step, Math.ceil(high / step) * step);
  const ticks: number[] = [];
  for (let tick = first; tick <= last; tick += step) ticks.push(tick);
  return { ticks, step };
}

/**
 * The time axis: UTC midnights a whole number of days apart (at most 6); both ends when under
 * two days; the one time when the series was seen within a minute (a single collection).
 */
export function timeTicks(start: number, end: number, now: number): Array<{ at: number; label: string }> {
  if (end - start < 60_000) return [{ at: start, label: dayAndTime(start, now) }];
  if (end - start < 2 * dayMs)
    return [
      { at: start, label: dayAndTime(start, now) },
      { at: end, label: dayAndTime(end, now) },
    ];
  const every = [1, 2, 7, 14, 30, 61, 91, 182, 365].find((days) => (end - start) / (days * dayMs) <= 6) ?? 365;
  const ticks: Array<{ at: number; label: string }> = [];
  for (let day = Math.ceil(start / dayMs) * dayMs; day <= end; day += every * dayMs) ticks.push({ at: day, label: dayOfMonth(day, now) });
  return ticks;
}

/** `points` oldest first, held until `end` (when the value was last seen). */
export function lineChart(title: string, points: readonly TimePoint[], end: number, now: number): SafeHtml {
  const start = points[0]!.at;
  const finish = Math.max(end, points.at(-1)!.at, start + 1);
  const { ticks, step } = valueTicks(points.map((point) => point.value));
  const low = ticks[0]!;
  const high = ticks.at(-1)!;
  const x = (at: number) => (left + ((at - start) / (finish - start)) * (width - left - right)).toFixed(1);
  const y = (value: number) => (top + (1 - (value - low) / (high - low)) * (height - top - bottom)).toFixed(1);
  const line = points
    .map((point, index) => `${index === 0 ? 'M' : 'H'}${x(point.at)} ${index === 0 ? '' : 'V'}${y(point.value)}`)
    .join(' ');
  const dots = points.map(
    (point) =>
      html`<circle class="point" cx="${x(point.at)}" cy="${y(point.value)}" r="3"><title>${dayAndTime(point.at, now)}: ${point.value.toLocaleString('en-GB')}</title></circle>`,
  );
  const valueLabels = ticks.map(
    (tick) =>
      html`<line class="grid" x1="${left}" y1="${y(tick)}" x2="${width - right}" y2="${y(tick)}"></line><text class="tick" x="${left - 6}" y="${y(tick)}" text-anchor="end" dominant-baseline="middle">${compactNumber(tick, step)}</text>`,
  );
  const times = timeTicks(start, finish, now);
  const timeLabels = times.map(
    (tick, index) =>
      html`<text class="tick" x="${x(tick.at)}" y="${height - 8}" text-anchor="${times.length > 2 ? 'middle' : index === 0 ? 'start' : 'end'}">${tick.label}</text>`,
  );
  return html`<svg class="chart line-chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${title}">
${valueLabels}<line class="axis" x1="${left}" y1="${height - bottom}" x2="${width - right}" y2="${height - bottom}"></line>
<path class="series" d="${line} H${x(finish)}"></path>${dots}${timeLabels}</svg>`;
}
