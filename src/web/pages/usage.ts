// The dashboard's usage page (docs/dashboard.md#pages): this month's requests against the
// quota (the count `datapoints accounts show` prints), the rate limit, the reset date, and
// requests per day for the last 90 days as a chart and as a table.
import { monthOf, nextMonthStart } from '../../access/calendar.js';
import { webLimits } from '../../config.js';
import { formatDuration } from '../../duration.js';
import { page, type WebAnswer } from '../answers.js';
import { barChart } from '../barChart.js';
import type { WebContext } from '../context.js';
import { html } from '../html.js';
import { layout, type Viewer } from '../layout.js';

export const usagePath = '/dashboard/usage';

export function showUsage(context: WebContext, viewer: Viewer): WebAnswer {
  const now = context.now();
  context.accounts.refresh();
  const account = context.accounts.account(viewer.account)!;
  const used = context.usage.counted(account.name, monthOf(now));
  const standing =
    account.quota === null
      ? html`<p class="figure"><strong id="used">${used}</strong> requests this month (no monthly limit)</p>`
      : html`<p class="figure"><strong id="used">${used}</strong> of <strong>${account.quota}</strong> requests this month</p>
<progress max="${account.quota}" value="${Math.min(used, account.quota)}" aria-label="Share of the monthly quota used">${used} of ${account.quota}</progress>`;
  const suspension = account.suspended;
  const daily = context.daily.lastDays(account.name, webLimits.usageChartDays, now);
  const history = html`<section aria-labelledby="daily-heading"><h2 id="daily-heading">Requests per day, last ${webLimits.usageChartDays} days</h2>
${
  daily.every((day) => day.requests === 0)
    ? html`<p class="empty" id="no-usage">No requests in the last ${webLimits.usageChartDays} days yet: the chart appears with the first search.</p>`
    : barChart(
        { width: 720 },
        `Requests per day over the last ${webLimits.usageChartDays} days`,
        daily.map((day) => ({ label: day.day, parts: [{ value: day.requests, className: 'requests' }] })),
      )
}
<details><summary>The same figures as a table</summary><table><caption>Requests per day</caption><thead><tr><th scope="col">Day (UTC)</th><th scope="col">Requests</th></tr></thead>
<tbody>${daily.map((day) => html`<tr><td>${day.day}</td><td>${day.requests}</td></tr>`)}</tbody></table></details></section>`;
  return page(
    layout(
      'Usage',
      viewer,
      html`${suspension ? html`<p class="error" role="alert">This account is suspended: its searches are refused. Ask your operator.</p>` : ''}
<dl class="facts"><dt>Plan</dt><dd>${account.plan}</dd><dt>Rate limit</dt><dd>${account.rate.limit} requests per ${formatDuration(account.rate.windowMs)}</dd>
<dt>Month</dt><dd>${monthOf(now)} (UTC); the count starts again on ${nextMonthStart(now)}</dd></dl>
${standing}${history}`,
    ),
  );
}
