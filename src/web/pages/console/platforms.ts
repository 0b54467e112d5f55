// The console's platforms (docs/dashboard.md, "Platforms"): enabled or not and why, breaker,
// budget in use, queue depth, collections per minute by outcome and the last errors. The
// live part is rendered here both for the page and for its server-sent events, so a live
// update is the same markup a reload would give.
import { page, type WebAnswer } from '../../answers.js';
import { barChart } from '../../barChart.js';
import type { WebContext } from '../../context.js';
import { html, type SafeHtml } from '../../html.js';
import { layout, type Viewer } from '../../layout.js';
import type { PlatformStatus } from '../../platformStatus.js';

export const consolePlatformsPath = '/console/platforms';
export const consoleEventsPath = '/console/events';

const outcomes = ['found', 'notFound', 'rateLimited', 'failed', 'deferred'] as const;

function platformSection(status: PlatformStatus): SafeHtml {
  const minutes = status.perMinute.map((counts, index) => ({
    label: `${index - status.perMinute.length + 1} min`,
    parts: outcomes.map((outcome) => ({ value: counts[outcome] ?? 0, className: `outcome-${outcome}` })),
  }));
  const totals = outcomes.map((outcome) => [outcome, status.perMinute.reduce((sum, counts) => sum + (counts[outcome] ?? 0), 0)] as const);
  return html`<section class="platform" aria-labelledby="platform-${status.platform}"><h2 id="platform-${status.platform}">${status.platform}</h2>
<dl class="facts"><dt>Enabled</dt><dd>${status.enabled ? 'yes' : html`<span class="badge bad">no</span> ${status.disabledReason ?? ''}`}</dd>
<dt>Circuit breaker</dt><dd class="breaker-${status.breaker}">${status.breaker}</dd>
<dt>Budget in use</dt><dd>${status.budgetInUse} of ${status.budgetLimit}</dd><dt>Queue depth</dt><dd>${status.queueDepth}</dd></dl>
${barChart(`Collections per minute by outcome for ${status.platform}`, minutes)}
<p class="legend">${outcomes.map((outcome) => html`<span class="key outcome-${outcome}"></span> ${outcome} `)}</p>
<table><caption>Collections over the last ${status.perMinute.length} minutes</caption><thead><tr>${totals.map(([outcome]) => html`<th scope="col">${outcome}</th>`)}</tr></thead>
<tbody><tr>${totals.map(([, total]) => html`<td>${total}</td>`)}</tr></tbody></table>
${status.lastErrors.length === 0 ? html`<p>No recent errors.</p>` : html`<h3>Last errors</h3><ul class="errors">${status.lastErrors.map((error) => html`<li><time datetime="${error.at}">${error.at}</time> ${error.message}</li>`)}</ul>`}
</section>`;
}

/** The part of the page that server-sent events replace. */
export function livePlatforms(context: WebContext): SafeHtml {
  const source = context.platforms;
  const asOf = html`<p class="muted">As of <time>${new Date(context.now()).toISOString()}</time></p>`;
  return source ? html`${asOf}${source.platforms().map(platformSection)}` : html`${asOf}<p>This server reports no platform status.</p>`;
}

export function showPlatforms(context: WebContext, viewer: Viewer): WebAnswer {
  return page(
    layout(
      'Platforms',
      viewer,
      html`<p>This page updates itself every second while it is open (server-sent events from <code>${consoleEventsPath}</code>).</p>
<div id="live" data-events="${consoleEventsPath}" aria-live="off">${livePlatforms(context)}</div>`,
    ),
  );
}
