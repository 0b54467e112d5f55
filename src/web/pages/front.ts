// The page a person gets opening the server's address in a browser (docs/dashboard.md#front-page):
// where to go next. API clients, which do not ask for HTML, keep the API's JSON 404 for `GET /`.
import { openApiPaths } from '../../api/openapi.js';
import { page, type WebAnswer } from '../answers.js';
import { html } from '../html.js';
import { layout } from '../layout.js';

export const frontPath = '/';

/** Whether an Accept header asks for an HTML page, as a browser's navigation does. */
export const wantsHtml = (accept: string): boolean => /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept);

export function showFront(): WebAnswer {
  return page(
    layout(
      'Welcome',
      undefined,
      html`<p>A lookup service for public social-media counts. This address serves its API and its pages.</p>
<ul>
<li><a href="/dashboard">Dashboard</a>: sign in to create API tokens and see your usage (operators: the console).</li>
<li><a href="${openApiPaths.document}">OpenAPI document</a>: every endpoint, request and answer, for your tools.</li>
<li>API: <code>POST ${openApiPaths.search}</code> with <code>Authorization: Bearer TOKEN</code>; the API reference is
<code>docs/api.md</code> in the datapoints sources.</li>
<li><a href="${openApiPaths.readiness}">Readiness</a>: whether this server is ready, and which platforms fail to collect.</li>
</ul>`,
    ),
  );
}
