// The page shell every dashboard and console page shares: one stylesheet and one script from
// the server (the CSP allows nothing inline: docs/dashboard.md#content-security-policy),
// a skip link, the navigation of the signed-in account and its sign-out form.
import { html, type HtmlValue, type SafeHtml } from './html.js';
import type { Session } from './sessions.js';

export interface Viewer {
  account: string;
  operator: boolean;
  session: Session;
}

export const assetPaths = { style: '/dashboard/assets/style.css', script: '/dashboard/assets/page.js' } as const;

/** The hidden field every form carries (docs/dashboard.md#csrf). */
export const csrfField = (session: Session) => html`<input type="hidden" name="csrf" value="${session.record.csrf}">`;

function navigation(viewer: Viewer | undefined): SafeHtml {
  if (!viewer) return html``;
  const consoleLinks = viewer.operator
    ? html`<li><a href="/console/accounts">Accounts</a></li><li><a href="/console/platforms">Platforms</a></li><li><a href="/console/resources">Resources</a></li>`
    : html``;
  return html`<nav aria-label="Main"><ul>
<li><a href="/dashboard/tokens">API tokens</a></li><li><a href="/dashboard/usage">Usage</a></li>${consoleLinks}
</ul>
<form method="post" action="/dashboard/signout" class="signout">${csrfField(viewer.session)}
<span>Signed in as <strong>${viewer.account}</strong>${viewer.operator ? ' (operator)' : ''}</span>
<button type="submit">Sign out</button></form></nav>`;
}

export function layout(title: string, viewer: Viewer | undefined, content: HtmlValue): SafeHtml {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · datapoints</title><link rel="stylesheet" href="${assetPaths.style}"><script src="${assetPaths.script}" defer></script></head>
<body><a class="skip" href="#main">Skip to content</a>
<header><span class="brand">datapoints</span>${navigation(viewer)}</header>
<main id="main"><h1>${title}</h1>${content}</main></body></html>`;
}

/** A message above a form: what went wrong, read out by screen readers as it appears. */
export function notice(kind: 'error' | 'success', message: HtmlValue): SafeHtml {
  return kind === 'error' ? html`<p class="error" role="alert">${message}</p>` : html`<p class="success" role="status">${message}</p>`;
}

/** A page that only says why a request was refused, with a way on. */
export function refusalPage(title: string, viewer: Viewer | undefined, message: string, next: { href: string; label: string }): SafeHtml {
  return layout(title, viewer, html`${notice('error', message)}<p><a href="${next.href}">${next.label}</a></p>`);
}
