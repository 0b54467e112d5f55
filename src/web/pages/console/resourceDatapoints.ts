// The resource inspector's datapoints (docs/dashboard.md#resource-inspector): the current values
// as the search answers them, then each datapoint's recorded series over the retained range
// (docs/history.md#console) as a chart, with its points as a table behind it.
import type { Datapoint } from '../../../model.js';
import type { HistorySource, RecordedSeries, SeriesPoint } from '../../../resources/historySource.js';
import { html, type SafeHtml } from '../../html.js';
import { lineChart } from '../../lineChart.js';
import { dayAndTime } from '../../peopleUnits.js';

type Groups = Partial<Record<RecordedSeries['group'], Record<string, Datapoint> | null>>;

const isoOf = (ms: number) => new Date(ms).toISOString();
const shown = (value: unknown) => (value === null ? '—' : typeof value === 'number' ? value.toLocaleString('en-GB') : String(value));

function currentTable(groups: Groups, now: number): SafeHtml {
  const rows = (['metrics', 'attributes'] as const).flatMap((group) =>
    Object.entries(groups[group] ?? {}).map(
      ([name, point]) =>
        html`<tr><td>${group}</td><td>${name}</td><td class="number">${shown(point.value)}</td><td>${point.status}</td><td><time datetime="${point.collected_at}">${dayAndTime(Date.parse(point.collected_at), now)}</time></td><td>${point.semantic}</td></tr>`,
    ),
  );
  if (rows.length === 0) return html`<p>No datapoints collected yet.</p>`;
  return html`<table id="datapoints"><caption>Current datapoints</caption><thead><tr><th scope="col">Group</th><th scope="col">Datapoint</th><th scope="col">Value</th><th scope="col">Status</th><th scope="col">Collected</th><th scope="col">Semantic</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

function seriesSection(
  series: RecordedSeries & { before: SeriesPoint | undefined },
  from: number,
  lastSeen: number,
  now: number,
): SafeHtml {
  // A value in force before the retained range opens the line at its edge.
  const points = series.before ? [{ at: from, value: series.before.value }, ...series.points] : series.points;
  const title = `${series.group} ${series.name}`;
  const numbers = points.flatMap((point) => (typeof point.value === 'number' ? [{ at: point.at, value: point.value }] : []));
  const chart =
    numbers.length > 0 && numbers.length === points.length
      ? lineChart(`${title} over time`, numbers, lastSeen, now)
      : html`<p>Not a number: shown as a table only.</p>`;
  const rows = points.map(
    (point) =>
      html`<tr><td><time datetime="${isoOf(point.at)}">${dayAndTime(point.at, now)}</time></td><td class="number">${shown(point.value)}</td></tr>`,
  );
  return html`<section class="series" id="series-${series.group}-${series.name}"><h3>${title}</h3>${chart}
<details><summary>The ${points.length === 1 ? '1 point' : `${points.length} points`} as a table</summary><table><thead><tr><th scope="col">At</th><th scope="col">Value</th></tr></thead><tbody>${rows}</tbody></table></details></section>`;
}

/** The current datapoints of `groups` and the recorded series of the resource `key`. */
export function resourceDatapoints(options: { key: string; groups: Groups; history: HistorySource; now: number }): SafeHtml {
  const { key, groups, history, now } = options;
  const from = history.retainedFrom(now);
  const recorded = history.read(key, from, now).filter((series) => series.points.length > 0 || series.before);
  const charts = !history.recording
    ? html`<p>History is not recorded (<code>--history-days 0</code>).</p>`
    : recorded.length === 0
      ? html`<p>No points recorded yet.</p>`
      : recorded.map((series) => {
          const seen = groups[series.group]?.[series.name]?.collected_at;
          return seriesSection(series, from, seen ? Date.parse(seen) : now, now);
        });
  return html`<h2>Datapoints</h2>${currentTable(groups, now)}<h2>History</h2>${charts}`;
}
