// The console's platforms (docs/dashboard.md#operator-console), as the platform status board last
// reported them (docs/operations.md#platform-status). The live part is rendered here both for the
// page and for its server-sent events, so a live update is the markup a reload would give.
import { outcomeKinds, type OutcomeKind, type PlatformStatus } from '../../../operations/platformStatus.js';
import { page, type WebAnswer } from '../../answers.js';
import { barChart } from '../../barChart.js';
import type { WebContext } from '../../context.js';
import { html, type SafeHtml } from '../../html.js';
import { layout, type Viewer } from '../../layout.js';
import { dayAndTime, plural, timeOfDay } from '../../peopleUnits.js';

export const consolePlatformsPath = '/console/platforms';
export const consoleEventsPath = '/console/events';

const iso = timeOfDay;

/** What a reader calls each outcome: the legend and the table headings say these, not the code's names. */
const outcomeLabels: Record<OutcomeKind, string> = {
  found: 'found',
  notFound: 'not found',
  rateLimited: 'rate limited',
  failed: 'failed',
  deferred: 'deferred',
};

function breaker(status: PlatformStatus): SafeHtml {
  const { state, since, trialAt, failures } = status.breaker;
  if (state === 'closed') return html`<span class="breaker-closed">closed</span>`;
  return html`<span class="breaker-open">open</span>${since === null ? '' : ` since ${iso(since)}`}${failures === null ? '' : ` after ${plural(failures, 'failure')}`}${trialAt === null ? '' : `; trial call at ${iso(trialAt)}`}`;
}

/** docs/operations.md#collection-failing: whether the platform's last collections failed, since when and why. */
function failingText(status: PlatformStatus): SafeHtml {
  const { failing } = status;
  if (failing === null) return html`not failing`;
  return html`<span class="badge bad">failing</span> since ${iso(failing.since)}: the last ${failing.failures} collection(s) failed; last: ${failing.lastError}`;
}

/** docs/platforms.md#each-server-its-own-upstream: the servers of a federated platform whose own breaker is open, and why. */
function failingServers(status: PlatformStatus): SafeHtml {
  if (status.failingServers.length === 0) return html``;
  return html`<h3>Failing servers</h3><p>Each server has its own circuit breaker; these are paused, the platform's other servers are not.</p><ul class="errors">${status.failingServers.map(
    (server) =>
      html`<li><code>${server.host}</code>: <span class="breaker-open">open</span> since ${iso(server.since)} after ${plural(server.failures, 'failure')}; trial call at ${iso(server.trialAt)}${server.lastError === null ? '' : html`; last: ${server.lastError}`}</li>`,
  )}</ul>`;
}

function platformSection(status: PlatformStatus): SafeHtml {
  const minutes = status.perMinute.map((counts, index) => ({
    label: `${index - status.perMinute.length + 1} min`,
    parts: outcomeKinds.map((outcome) => ({ value: counts[outcome], className: `outcome-${outcome}` })),
  }));
  const totals = outcomeKinds.map((outcome) => [outcome, status.perMinute.reduce((sum, counts) => sum + counts[outcome], 0)] as const);
  const { budget } = status;
  return html`<section class="platform" aria-labelledby="platform-${status.platform}"><h2 id="platform-${status.platform}">${status.platform}</h2>
<dl class="facts"><dt>Enabled</dt><dd>${status.disabledReason === null ? 'yes' : html`<span class="badge bad">no</span> ${status.disabledReason}`}</dd>
<dt>Collection</dt><dd>${failingText(status)}</dd>
<dt>Circuit breaker</dt><dd>${breaker(status)}</dd>
<dt>Budget in use</dt><dd>${budget.inFlight} of ${plural(budget.concurrency, 'call')} at once; ${plural(budget.callsLastMinute, 'call')} in the last minute${budget.perMinute === null ? ' (no per-minute limit)' : ` of ${budget.perMinute}`}</dd>
<dt>Collecting</dt><dd>${plural(status.collecting, 'resource')} handed to this platform and not yet answered</dd></dl>
${barChart({ width: 360 }, `Collections per minute by outcome for ${status.platform}, last ${status.perMinute.length} minutes`, minutes)}
<p class="legend">${outcomeKinds.map((outcome) => html`<span class="legend-item"><span class="key outcome-${outcome}"></span> ${outcomeLabels[outcome]}</span> `)}</p>
<table><caption>Collections of ${status.platform} over the last ${status.perMinute.length} minutes</caption><thead><tr>${totals.map(([outcome]) => html`<th scope="col">${outcomeLabels[outcome]}</th>`)}</tr></thead>
<tbody><tr>${totals.map(([, total]) => html`<td>${total}</td>`)}</tr></tbody></table>
${failingServers(status)}
${
  status.lastErrors.length === 0
    ? html`<p>No recent errors.</p>`
    : html`<h3>Last errors</h3><ul class="errors">${status.lastErrors.map(
        (error) =>
          html`<li><time datetime="${new Date(error.at).toISOString()}">${iso(error.at)}</time> <code>${error.resource}</code>: ${error.message}</li>`,
      )}</ul>`
}
</section>`;
}

const asOf = (ms: number, now: number) =>
  html`<time datetime="${new Date(ms).toISOString()}">${dayAndTime(ms, now).replace(' UTC', `:${timeOfDay(ms).slice(6)}`)}</time>`;

/** The part of the page that server-sent events replace. */
export function livePlatforms(context: Pick<WebContext, 'platforms' | 'now'>): SafeHtml {
  const snapshot = context.platforms?.snapshot();
  if (!snapshot) return html`<p class="muted">As of ${asOf(context.now(), context.now())}: no platform status received yet.</p>`;
  return html`<p class="muted">As of ${asOf(snapshot.at, context.now())}</p>
<p>Queue depth: ${snapshot.queueWaiting === null ? 'kept by NATS in a cluster (stream DATAPOINTS_COLLECT)' : html`<strong>${snapshot.queueWaiting}</strong> ${snapshot.queueWaiting === 1 ? 'collection request' : 'collection requests'} waiting, all platforms together`}.</p>
<div class="platforms">${snapshot.platforms.map(platformSection)}</div>`;
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
