// The console's accounts (docs/dashboard.md#operator-console): create, change plan, quota
// and rate, suspend and resume, and invite, through the same code and rules as `datapoints
// accounts` (suspension: docs/api.md#a-53). A refused value changes nothing and says why, in the CLI's words.
import { checkAccountName, checkReason, settingsFrom } from '../../../access/accountInput.js';
import { monthOf } from '../../../access/calendar.js';
import { createAccount, updateAccount } from '../../../access/provisioning.js';
import { accountSuspension } from '../../../config.js';
import { formatDuration } from '../../../duration.js';
import { UsageError } from '../../../usageError.js';
import { type AccountRecord, accountNamedLike } from '../../../store/accountStore.js';
import { page, redirect, type WebAnswer, type WebRequest } from '../../answers.js';
import type { WebContext } from '../../context.js';
import { html, type SafeHtml } from '../../html.js';
import { createInvite, inviteLink } from '../../invites.js';
import { csrfField, layout, notice, type Viewer } from '../../layout.js';
import { dayAndTime, plural, relative } from '../../peopleUnits.js';

export const consoleAccountsPath = '/console/accounts';

/** The CLI's message for a refused value, with the flag named as the form's field. */
function refusal(error: unknown): string {
  if (error instanceof UsageError) return error.message.replace(/--(\w+)/g, '$1').replace(/^invalid/, 'Invalid');
  throw error;
}

/** The form fields as the CLI's flags: blank fields change nothing. */
function settingValues(form: URLSearchParams) {
  const value = (name: string) => {
    const text = form.get(name)?.trim();
    return text === undefined || text === '' ? undefined : text;
  };
  return { plan: value('plan'), quota: value('quota'), rate: value('rate') };
}

function accountRow(context: WebContext, viewer: Viewer, account: AccountRecord, now: number): SafeHtml {
  const used = context.usage.counted(account.name, monthOf(now));
  const suspension = account.suspended;
  const form = (action: string, label: string, extra: SafeHtml = html``, buttonClass = '') =>
    html`<form method="post" action="${consoleAccountsPath}/${action}" class="inline">${csrfField(viewer.session)}<input type="hidden" name="name" value="${account.name}">${extra}<button type="submit" class="${buttonClass}">${label}</button></form>`;
  const suspendControl = suspension
    ? form('resume', `Resume ${account.name}`)
    : form(
        'suspend',
        `Suspend ${account.name}`,
        html`<label for="reason-${account.name}">Reason (optional)</label><input id="reason-${account.name}" name="reason" maxlength="${accountSuspension.maxReasonLength}">`,
        'danger',
      );
  return html`<tr><th scope="row">${account.name}${account.operator ? html` <span class="badge">operator</span>` : ''}</th>
<td>${account.plan}</td><td>${account.quota ?? 'none'}</td><td>${account.rate.limit}/${formatDuration(account.rate.windowMs)}</td><td>${used}</td>
<td>${suspension ? html`<span class="badge bad">suspended</span> since ${dayAndTime(Date.parse(suspension.at), now)}${suspension.reason === null ? '' : `: ${suspension.reason}`}` : 'active'}</td>
<td class="actions">${suspendControl} ${form('invite', `Invite ${account.name}`)}
<details><summary>Change ${account.name}</summary>${form(
    'update',
    'Save changes',
    html`<label for="plan-${account.name}">Plan</label><select id="plan-${account.name}" name="plan"><option value="">(unchanged)</option><option>free</option><option>paid</option></select>
<label for="quota-${account.name}">Quota (number or none)</label><input id="quota-${account.name}" name="quota" size="8">
<label for="rate-${account.name}">Rate (like 60/1m)</label><input id="rate-${account.name}" name="rate" size="8">`,
  )}</details></td></tr>`;
}

/** Accounts shown per page of the list (docs/dashboard.md#operator-console). */
export const accountsPerPage = 50;

/** What the list shows: the accounts whose name holds `search` (any case), one page of them. */
interface ListView {
  search: string;
  page: number;
}

function listViewOf(query: URLSearchParams): ListView {
  const page = Number(query.get('page') ?? '1');
  return { search: (query.get('q') ?? '').trim(), page: Number.isSafeInteger(page) && page >= 1 ? page : 1 };
}

function listHref(view: ListView, page: number): string {
  const query = new URLSearchParams();
  if (view.search !== '') query.set('q', view.search);
  if (page > 1) query.set('page', String(page));
  const text = query.toString();
  return text === '' ? consoleAccountsPath : `${consoleAccountsPath}?${text}`;
}

function accountsPage(
  context: WebContext,
  viewer: Viewer,
  top?: SafeHtml,
  entered: { name?: string } = {},
  view: ListView = { search: '', page: 1 },
): SafeHtml {
  const now = context.now();
  context.accounts.refresh();
  const all = context.accounts.accounts();
  const needle = view.search.toLowerCase();
  const matching = needle === '' ? all : all.filter((account) => account.name.toLowerCase().includes(needle));
  const pages = Math.max(1, Math.ceil(matching.length / accountsPerPage));
  const page = Math.min(view.page, pages);
  const shown = matching.slice((page - 1) * accountsPerPage, page * accountsPerPage);
  const first = matching.length === 0 ? 0 : (page - 1) * accountsPerPage + 1;
  const caption =
    (view.search === ''
      ? plural(all.length, 'account')
      : `${plural(matching.length, 'account')} matching '${view.search}' of ${all.length}`) +
    (pages > 1 ? `; ${first}-${first + shown.length - 1} shown, page ${page} of ${pages}` : '');
  const paging =
    pages > 1
      ? html`<nav class="paging" aria-label="Pages of accounts">${page > 1 ? html`<a href="${listHref(view, page - 1)}" rel="prev">Previous</a>` : ''} Page ${page} of ${pages} ${page < pages ? html`<a href="${listHref(view, page + 1)}" rel="next">Next</a>` : ''}</nav>`
      : '';
  return layout(
    'Accounts',
    viewer,
    html`${top}<section aria-labelledby="new-heading"><h2 id="new-heading">Create an account</h2>
<form method="post" action="${consoleAccountsPath}" class="stacked">${csrfField(viewer.session)}
<label for="new-name">Name (1-64 letters, digits, '.', '_' or '-')</label><input id="new-name" name="name" required maxlength="64" value="${entered.name ?? ''}">
<label for="new-plan">Plan</label><select id="new-plan" name="plan"><option>free</option><option>paid</option></select>
<label for="new-quota">Quota (blank: the plan's; a number or none)</label><input id="new-quota" name="quota">
<label for="new-rate">Rate (blank: the plan's; like 60/1m)</label><input id="new-rate" name="rate">
<button type="submit">Create account</button></form></section>
<section aria-labelledby="list-heading"><h2 id="list-heading">All accounts</h2>
<form method="get" action="${consoleAccountsPath}" class="inline" role="search"><label for="account-search">Name contains</label> <input id="account-search" name="q" value="${view.search}" maxlength="64"> <button type="submit">Search</button>${view.search === '' ? '' : html` <a href="${consoleAccountsPath}">Show all</a>`}</form>
<table class="accounts"><caption>${caption}</caption><thead><tr><th scope="col">Name</th><th scope="col">Plan</th><th scope="col">Quota</th><th scope="col">Rate</th><th scope="col">Used this month</th><th scope="col">Status</th><th scope="col">Actions</th></tr></thead>
<tbody>${shown.map((account) => accountRow(context, viewer, account, now))}</tbody></table>${paging}</section>`,
  );
}

/**
 * What a change on this page says after its redirect (docs/dashboard.md#banners): a fixed message
 * per key, about an account that exists; any other `done` or `account` shows nothing.
 */
const doneMessages = {
  created: (name: string) => `Account ${name} created.`,
  changed: (name: string) => `Account ${name} changed.`,
  suspended: (name: string) => `Account ${name} suspended: its searches are refused.`,
  resumed: (name: string) => `Account ${name} resumed.`,
} as const;
type Done = keyof typeof doneMessages;

function doneBanner(context: WebContext, query: URLSearchParams): SafeHtml | undefined {
  const key = query.get('done') ?? '';
  const name = query.get('account') ?? '';
  if (!Object.hasOwn(doneMessages, key)) return undefined;
  context.accounts.refresh();
  return context.accounts.account(name) ? notice('success', doneMessages[key as Done](name)) : undefined;
}

export function showAccounts(context: WebContext, request: WebRequest, viewer: Viewer): WebAnswer {
  return page(accountsPage(context, viewer, doneBanner(context, request.query), {}, listViewOf(request.query)));
}

const refused = (context: WebContext, viewer: Viewer, message: string, entered: { name?: string } = {}) =>
  page(accountsPage(context, viewer, notice('error', message), entered), '422 Unprocessable Entity');

const done = (key: Done, name: string) => redirect(`${consoleAccountsPath}?${new URLSearchParams({ done: key, account: name })}`);

export async function createAccountFromConsole(context: WebContext, request: WebRequest, viewer: Viewer): Promise<WebAnswer> {
  const entered = request.form.get('name') ?? '';
  try {
    const name = checkAccountName(entered);
    const account = await createAccount(
      context.accountWrites,
      name,
      { plan: 'free', ...settingsFrom(settingValues(request.form)) },
      context.now(),
    );
    if (!account) {
      // docs/operations.md#accounts: names differing only by case are one account.
      const existing =
        accountNamedLike(
          context.accounts.accounts().map((known) => known.name),
          name,
        ) ?? name;
      return refused(context, viewer, `An account named '${existing}' already exists.`, { name: entered });
    }
    context.log.info({ account: name, by: viewer.account }, 'account created on the console');
    return done('created', name);
  } catch (error) {
    return refused(context, viewer, refusal(error), { name: entered.slice(0, 64) });
  }
}

/** The existing account the form names, or the refusal to answer with. */
function namedAccount(context: WebContext, request: WebRequest, viewer: Viewer): { name: string } | { answer: WebAnswer } {
  const name = request.form.get('name') ?? '';
  context.accounts.refresh();
  return context.accounts.account(name) ? { name } : { answer: refused(context, viewer, `There is no account named '${name}'.`) };
}

export async function updateAccountFromConsole(context: WebContext, request: WebRequest, viewer: Viewer): Promise<WebAnswer> {
  const named = namedAccount(context, request, viewer);
  if ('answer' in named) return named.answer;
  try {
    const settings = settingsFrom(settingValues(request.form));
    if (Object.keys(settings).length === 0)
      return refused(context, viewer, `Nothing to change for ${named.name}: give a plan, a quota or a rate.`);
    await updateAccount(context.accountWrites, named.name, settings);
    context.log.info({ account: named.name, by: viewer.account }, 'account changed on the console');
    return done('changed', named.name);
  } catch (error) {
    return refused(context, viewer, refusal(error));
  }
}

export async function suspendFromConsole(context: WebContext, request: WebRequest, viewer: Viewer, suspend: boolean): Promise<WebAnswer> {
  const named = namedAccount(context, request, viewer);
  if ('answer' in named) return named.answer;
  if (suspend) {
    const given = (request.form.get('reason') ?? '').trim();
    let reason: string | null;
    try {
      reason = checkReason(given === '' ? undefined : given);
    } catch (error) {
      return refused(context, viewer, refusal(error));
    }
    await context.accountWrites.suspendAccount(named.name, new Date(context.now()).toISOString(), reason);
  } else {
    await context.accountWrites.resumeAccount(named.name);
  }
  context.log.info(
    { account: named.name, by: viewer.account },
    suspend ? 'account suspended on the console' : 'account resumed on the console',
  );
  return done(suspend ? 'suspended' : 'resumed', named.name);
}

export async function inviteFromConsole(context: WebContext, request: WebRequest, viewer: Viewer): Promise<WebAnswer> {
  const named = namedAccount(context, request, viewer);
  if ('answer' in named) return named.answer;
  const invite = await createInvite(context.records, named.name, context.now());
  const link = inviteLink(request.origin, invite.secret);
  context.log.info({ account: named.name, by: viewer.account }, 'invite created on the console');
  const shown = html`<div class="secret" role="status"><h2>Invite link for ${named.name}</h2>
<p>Give this link to the account's holder; it works once, until ${dayAndTime(invite.expiresAt, context.now())} (${relative(invite.expiresAt, context.now())}). It is shown only now.</p>
<p><label for="secret">Invite link</label><input id="secret" readonly value="${link}" size="60"> <button type="button" class="copy" data-copy="secret">Copy</button> <span class="copied" aria-live="polite"></span></p></div>`;
  return page(accountsPage(context, viewer, shown));
}
