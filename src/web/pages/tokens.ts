// The dashboard's API tokens page, the CLI's rules through the same code (src/access/provisioning.ts);
// a new secret is shown once, after a redirect (docs/dashboard.md#api-tokens).
import { issueToken } from '../../access/provisioning.js';
import { digestToken, tokenNoteProblem } from '../../auth/tokens.js';
import { tokenDisplay } from '../../config.js';
import type { TokenRecord } from '../../store/accountStore.js';
import { page, redirect, type WebAnswer, type WebRequest } from '../answers.js';
import type { WebContext } from '../context.js';
import { html, type SafeHtml } from '../html.js';
import { csrfField, layout, notice, type Viewer } from '../layout.js';
import { dayAndTime } from '../peopleUnits.js';

export const tokensPath = '/dashboard/tokens';
export const revokePath = '/dashboard/tokens/revoke';

const when = (iso: string | null, now: number) =>
  iso === null ? html`<span class="muted">never</span>` : html`<time datetime="${iso}">${dayAndTime(Date.parse(iso), now)}</time>`;

function tokenRow(token: TokenRecord, now: number) {
  const revoked = token.revokedAt === null ? html`<span class="muted">no</span>` : when(token.revokedAt, now);
  const action = token.revokedAt === null ? html`<a href="${revokePath}?id=${encodeURIComponent(token.id)}">Revoke…</a>` : '';
  return html`<tr><td><code>${token.shown ?? '(not kept)'}…</code></td><td>${token.note ?? ''}</td><td>${when(token.createdAt, now)}</td><td>${when(token.lastUsedAt, now)}</td><td>${revoked}</td><td>${action}</td></tr>`;
}

function tokensPage(context: WebContext, viewer: Viewer, top: SafeHtml | undefined, note = ''): SafeHtml {
  context.accounts.refresh();
  const tokens = context.accounts.tokensOf(viewer.account);
  const table =
    tokens.length === 0
      ? html`<p>No tokens yet.</p>`
      : html`<table><caption>Tokens of ${viewer.account}</caption><thead><tr><th scope="col">Starts with</th><th scope="col">Note</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Revoked</th><th scope="col">Action</th></tr></thead><tbody>${tokens.map((token) => tokenRow(token, context.now()))}</tbody></table>`;
  return layout(
    'API tokens',
    viewer,
    html`${top}<section aria-labelledby="create-heading"><h2 id="create-heading">Create a token</h2>
<form method="post" action="${tokensPath}" class="stacked">${csrfField(viewer.session)}
<label for="note">Note (what the token is for; optional)</label>
<input id="note" name="note" maxlength="${tokenDisplay.maxNoteLength}" value="${note}">
<button type="submit">Create token</button></form></section>
<section aria-labelledby="list-heading"><h2 id="list-heading">Your tokens</h2>${table}</section>`,
  );
}

/** How long after its creation a new token's secret may still be shown: the redirect's round trip, with room. */
const showSecretForMs = 120_000;

export function showTokens(context: WebContext, request: WebRequest, viewer: Viewer): WebAnswer {
  // docs/dashboard.md#banners: said only of one of the viewer's own tokens that is revoked.
  const revoked = ownToken(context, viewer, request.query.get('revoked'));
  let top =
    revoked?.revokedAt == null
      ? undefined
      : notice('success', html`Token <code>${revoked.shown ?? revoked.id}</code> is revoked: it is refused from now on.`);
  if (request.newToken === undefined) return page(tokensPage(context, viewer, top));
  context.accounts.refresh();
  const token = context.accounts.tokenByDigest(digestToken(request.newToken));
  // Shown only to its own account, while live and new; forgotten by the browser either way.
  if (
    token &&
    token.account === viewer.account &&
    token.revokedAt === null &&
    context.now() - Date.parse(token.createdAt) < showSecretForMs
  )
    top = newSecret(request.newToken);
  return {
    kind: 'page',
    status: '200 OK',
    body: tokensPage(context, viewer, top),
    newToken: { secret: '', path: tokensPath },
  };
}

const newSecret = (secret: string) => html`<div class="secret" role="status"><h2>Your new token</h2>
<p>Copy it now: it is shown only this once and cannot be shown again.</p>
<p class="secret-field"><label for="secret">Token secret</label><input id="secret" readonly value="${secret}" size="40">
<button type="button" class="copy" data-copy="secret">Copy</button> <span class="copied" aria-live="polite"></span></p>
<p>Use it as <code>Authorization: Bearer &lt;token&gt;</code> on <code>POST /api/v1/resources/search</code>.</p></div>`;

export async function createToken(context: WebContext, request: WebRequest, viewer: Viewer): Promise<WebAnswer> {
  const note = request.form.get('note') ?? '';
  const problem = tokenNoteProblem(note);
  if (problem)
    return page(
      tokensPage(context, viewer, notice('error', `The note is refused: ${problem}.`), note.slice(0, tokenDisplay.maxNoteLength)),
      '422 Unprocessable Entity',
    );
  const token = await issueToken(context.accountWrites, viewer.account, context.now(), note.trim() === '' ? null : note);
  context.log.info({ account: viewer.account, token: token.id }, 'token created on the dashboard');
  return redirect(tokensPath, { newToken: { secret: token.secret, path: tokensPath } });
}

/** The viewer's own token of the request's `id`, or undefined (another account's token is as good as none). */
function ownToken(context: WebContext, viewer: Viewer, id: string | null): TokenRecord | undefined {
  if (id === null) return undefined;
  context.accounts.refresh();
  const token = context.accounts.token(id);
  return token && token.account === viewer.account ? token : undefined;
}

const noSuchToken = (viewer: Viewer) =>
  page(
    layout(
      'No such token',
      viewer,
      html`${notice('error', 'You have no token with that id.')}<p><a href="${tokensPath}">Back to your tokens</a></p>`,
    ),
    '404 Not Found',
  );

export function confirmRevoke(context: WebContext, request: WebRequest, viewer: Viewer): WebAnswer {
  const token = ownToken(context, viewer, request.query.get('id'));
  if (!token) return noSuchToken(viewer);
  if (token.revokedAt !== null) return redirect(tokensPath);
  return page(
    layout(
      'Revoke a token',
      viewer,
      html`<p>Revoke the token starting <code>${token.shown ?? token.id}</code>${token.note ? html` (${token.note})` : ''}? Every request with it is refused within a second. This cannot be undone.</p>
<form method="post" action="${revokePath}">${csrfField(viewer.session)}<input type="hidden" name="id" value="${token.id}">
<button type="submit" class="danger">Revoke this token</button> <a href="${tokensPath}">Cancel</a></form>`,
    ),
  );
}

export async function revokeToken(context: WebContext, request: WebRequest, viewer: Viewer): Promise<WebAnswer> {
  const token = ownToken(context, viewer, request.form.get('id'));
  if (!token) return noSuchToken(viewer);
  await context.accountWrites.revokeToken(token.id, new Date(context.now()).toISOString());
  context.log.info({ account: viewer.account, token: token.id }, 'token revoked on the dashboard');
  return redirect(`${tokensPath}?revoked=${encodeURIComponent(token.id)}`);
}
