// A bar chart drawn on the server as SVG (no script, nothing inline the CSP would refuse),
// always paired with a table of the same figures for screen readers and keyboard users.
import { html, type SafeHtml } from './html.js';

export interface Bar {
  label: string;
  /** Stacked parts of the bar, drawn bottom up; each part's class colours it. */
  parts: ReadonlyArray<{ value: number; className: string }>;
}

const height = 180;
const axis = 40;

/**
 * `width` is the drawing's own units: near the width the chart is shown at, so that its labels
 * keep their size (a 720-unit chart in a 330 px column drew 11 px labels at ~5 px).
 */
export function barChart(options: { width: number }, title: string, bars: readonly Bar[]): SafeHtml {
  const { width } = options;
  const highest = Math.max(1, ...bars.map((bar) => bar.parts.reduce((sum, part) => sum + part.value, 0)));
  const step = (width - axis) / Math.max(1, bars.length);
  const barWidth = Math.max(1, step * 0.8);
  const rects = bars.map((bar, index) => {
    let base = height - 20;
    const x = axis + index * step;
    return bar.parts.map((part) => {
      const size = (part.value / highest) * (height - 30);
      base -= size;
      return part.value === 0
        ? html``
        : html`<rect class="${part.className}" x="${x.toFixed(1)}" y="${base.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${size.toFixed(1)}"><title>${bar.label}: ${part.value}</title></rect>`;
    });
  });
  const first = bars[0]?.label ?? '';
  const last = bars.at(-1)?.label ?? '';
  return html`<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${title}">
<line class="axis" x1="${axis}" y1="${height - 20}" x2="${width}" y2="${height - 20}"></line>
<text class="tick" x="${axis - 4}" y="14" text-anchor="end">${highest}</text><text class="tick" x="${axis - 4}" y="${height - 20}" text-anchor="end">0</text>
${rects}<text class="tick" x="${axis}" y="${height - 4}">${first}</text><text class="tick" x="${width}" y="${height - 4}" text-anchor="end">${last}</text></svg>`;
}
