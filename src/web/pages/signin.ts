// Sign-in, sign-out and the invite page (docs/dashboard.md#sign-in). A wrong name and a
// wrong password get the same answer after the same work, so the page does not tell which
// accounts exist; failures are throttled per name and per address.
import { webLimits } from '../../config.js';
import { page, redirect, type WebAnswer, type WebRequest } from '../answers.js';
import { type WebContext, viewerOf } from '../context.js';
import { html } from '../html.js';
import { csrfField, layout, notice } from '../layout.js';
import { invitePath, redeemInvite } from '../invites.js';
import { passwordProblem, verifyAgainstNothing, verifyPassword } from '../passwords.js';
import type { Session } from '../sessions.js';
import type { AttemptOutcome } from '../signinThrottle.js';

export const signinPath = '/dashboard/signin';
export const homePath = '/dashboard/tokens';

/** The request's session, or a new one for a visitor (its cookie set by the answer). */
async function formSession(context: WebContext, request: WebRequest): Promise<{ session: Session; fresh: boolean }> {
  return request.session ? { session: request.session, fresh: false } : { session: await context.sessions.startAnonymous(), fresh: true };
}

function signinForm(session: Session, name: string, message?: ReturnType<typeof notice>) {
  return layout(
    'Sign in',
    undefined,
    html`${message}<form method="post" action="${signinPath}" class="stacked">${csrfField(session)}
<label for="name">Account name</label><input id="name" name="name" autocomplete="username" required maxlength="64" value="${name}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required maxlength="${webLimits.maxPasswordLength}">
<button type="submit">Sign in</button></form>
<p>No password yet? Ask your operator for an invite link (<code>datapoints accounts invite NAME</code>).</p>`,
  );
}

export async function showSignin(context: WebContext, request: WebRequest): Promise<WebAnswer> {
  if (viewerOf(context, request)) return redirect(homePath);
  const { session, fresh } = await formSession(context, request);
  const message = request.query.get('password') === 'set' ? notice('success', 'Your password is set. Sign in with it.') : undefined;
  return page(signinForm(session, '', message), '200 OK', fresh ? { session } : {});
}

export async function signIn(context: WebContext, request: WebRequest): Promise<WebAnswer> {
  const session = request.session!;
  const name = (request.form.get('name') ?? '').trim();
  const password = request.form.get('password') ?? '';
  if (name === '' || password === '' || name.length > 64) {
    return page(
      signinForm(session, name.slice(0, 64), notice('error', 'Give your account name and your password.')),
      '422 Unprocessable Entity',
    );
  }
  // docs/dashboard.md#rate-limits: counted before the password is checked, settled after.
  const verdict = await context.throttle.reserve(name, request.address);
  if (verdict.kind === 'refuse') {
    const minutes = Math.ceil(verdict.retryAfterSeconds / 60);
    const message = `Too many failed sign-ins for this account or from this address. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
    const body = signinForm(session, name, notice('error', message));
    return { kind: 'page', status: '429 Too Many Requests', body, headers: [['Retry-After', String(verdict.retryAfterSeconds)]] };
  }
  let outcome: AttemptOutcome = 'unchecked';
  try {
    if (verdict.delayMs > 0) await context.sleep(verdict.delayMs);
    context.store.refresh();
    const record = context.accounts.account(name) ? context.store.password(name) : undefined;
    const right = record ? await verifyPassword(context.hasher, password, record) : await verifyAgainstNothing(context.hasher, password);
    outcome = right ? 'right' : 'wrong';
  } finally {
    await context.throttle.settle(verdict.attempt, outcome);
  }
  if (outcome === 'wrong')
    return page(signinForm(session, name, notice('error', 'The account name or the password is wrong.')), '401 Unauthorized');
  const signedIn = await context.sessions.signIn(name, session);
  context.log.info({ account: name }, 'dashboard sign-in');
  return redirect(homePath, { session: signedIn });
}

export async function signOut(context: WebContext, request: WebRequest): Promise<WebAnswer> {
  await context.sessions.end(request.session!);
  return redirect(signinPath, { clearSession: true });
}

/**
 * The invite page. After a refused invite (`refusal`) the form is hidden, since it could only
 * fail again; the page script shows it when a new link's fragment arrives (docs/dashboard.md#sign-in).
 */
function inviteForm(session: Session, invite: string, message?: ReturnType<typeof notice>, refusal?: ReturnType<typeof notice>) {
  return layout(
    'Set your password',
    undefined,
    html`${message}${refusal ? html`<div id="invite-refused">${refusal}<p>Open the new link your operator gives you, in this tab or another.</p></div>` : ''}<form method="post" action="${invitePath}" class="stacked" id="invite-form"${refusal ? ' hidden' : ''}>${csrfField(session)}
<input type="hidden" name="invite" id="invite" value="${invite}">
<p class="hint" id="invite-missing" ${invite === '' ? '' : 'hidden'}>This page reads your invite from the link it was opened with; it needs JavaScript for that.</p>
<label for="password">New password (at least ${webLimits.minPasswordLength} characters)</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${webLimits.minPasswordLength}" maxlength="${webLimits.maxPasswordLength}">
<label for="confirm">The same password again</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required maxlength="${webLimits.maxPasswordLength}">
<button type="submit">Set password</button></form>`,
  );
}

export async function showInvite(context: WebContext, request: WebRequest): Promise<WebAnswer> {
  const { session, fresh } = await formSession(context, request);
  return page(inviteForm(session, ''), '200 OK', fresh ? { session } : {});
}

export async function acceptInvite(context: WebContext, request: WebRequest): Promise<WebAnswer> {
  const session = request.session!;
  const invite = request.form.get('invite') ?? '';
  const password = request.form.get('password') ?? '';
  const confirm = request.form.get('confirm') ?? '';
  if (!/^[A-Za-z0-9_-]{43}$/.test(invite)) {
    const message = 'This invite link is incomplete: open the whole link your operator gave you.';
    return page(inviteForm(session, '', undefined, notice('error', message)), '422 Unprocessable Entity');
  }
  const problem = passwordProblem(password) ?? (password === confirm ? undefined : 'The two passwords differ; type the same one twice.');
  if (problem) return page(inviteForm(session, invite, notice('error', problem)), '422 Unprocessable Entity');
  const account = await redeemInvite(context.store, context.records, context.hasher, invite, password, context.now());
  if (account === undefined) {
    const message = 'This invite is unknown, already used or expired. Ask your operator for a new link.';
    return page(inviteForm(session, '', undefined, notice('error', message)), '410 Gone');
  }
  context.log.info({ account }, 'dashboard password set from an invite');
  return redirect(`${signinPath}?password=set`);
}
