// `datapoints accounts create|show|list|update|delete` (docs/operations.md#commands; docs/operations.md,
// "Accounts"): the dashboard of the spec. Every change takes effect on a running server within
// a second, because the store bumps the auth version the server polls.
import { monthOf, nextMonthStart } from '../access/calendar.js';
import { natsFlag, withAccountBook, type Books } from './accountBook.js';
import { createAccount, updateAccount, type AccountSettings } from '../access/provisioning.js';
import { flagBounds, plans, type PlanName, type RatePolicy } from '../config.js';
import type { AccountRecord } from '../store/accountStore.js';
import { dataFlag } from './dataStore.js';
import { noMorePositionals, parseBoundedDuration, parseFlags } from './flags.js';
import { UsageError } from './usageError.js';

const accountName = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkAccountName(name: string | undefined): string {
  if (name === undefined) throw new UsageError('an account NAME is required');
  if (!accountName.test(name)) throw new UsageError(`invalid account name '${name}': use 1-64 letters, digits, '.', '_' or '-'`);
  return name;
}

function parsePlan(text: string): PlanName {
  if (text === 'free' || text === 'paid') return text;
  throw new UsageError(`invalid --plan '${text}': use ${Object.keys(plans).join(' or ')}`);
}

function parseQuota(text: string): number | null {
  if (text === 'none') return null;
  if (!/^\d{1,15}$/.test(text)) throw new UsageError(`invalid --quota '${text}': give a whole number or 'none'`);
  return Number(text);
}

function parseRate(text: string): RatePolicy {
  const match = /^(\d{1,9})\/(.+)$/.exec(text);
  if (!match || Number(match[1]) < 1) throw new UsageError(`invalid --rate '${text}': write it like 60/1m`);
  const windowMs = parseBoundedDuration({ text: match[2]!, source: `--rate window` }, flagBounds.rateWindowMs);
  return { limit: Number(match[1]), windowMs };
}

function settingsFrom(values: { plan?: string; quota?: string; rate?: string }): AccountSettings {
  return {
    ...(values.plan === undefined ? {} : { plan: parsePlan(values.plan) }),
    ...(values.quota === undefined ? {} : { quota: parseQuota(values.quota) }),
    ...(values.rate === undefined ? {} : { rate: parseRate(values.rate) }),
  };
}

export function describeAccount(account: AccountRecord, used: number, now: number) {
  return {
    name: account.name,
    plan: account.plan,
    quota: account.quota,
    rate: { limit: account.rate.limit, window_ms: account.rate.windowMs },
    usage: {
      month: monthOf(now),
      used,
      remaining: account.quota === null ? null : Math.max(0, account.quota - used),
      resets_on: nextMonthStart(now),
    },
    created_at: account.createdAt,
  };
}

const settingFlags = { plan: { type: 'string' }, quota: { type: 'string' }, rate: { type: 'string' } } as const;

export async function accountsCommand(args: string[], print: (line: string) => void): Promise<void> {
  const [action, ...rest] = args;
  const now = Date.now();
  const describe = async ({ used }: Books, account: AccountRecord) =>
    JSON.stringify(describeAccount(account, await used(account.name, now), now));
  const flags = { ...dataFlag, ...natsFlag };

  if (action === 'create' || action === 'update') {
    const { values, positionals } = parseFlags(`accounts ${action}`, rest, { ...flags, ...settingFlags });
    noMorePositionals(`accounts ${action}`, positionals, 1);
    const name = checkAccountName(positionals[0]);
    const settings = settingsFrom(values);
    if (action === 'update' && Object.keys(settings).length === 0) throw new UsageError('accounts update needs --plan, --quota or --rate');
    const mode = action === 'create' ? 'create' : 'existing';
    return withAccountBook(values, mode, async (books) => {
      const accounts = books.book;
      const account =
        action === 'create'
          ? await createAccount(accounts, name, { plan: 'free', ...settings }, now)
          : await updateAccount(accounts, name, settings);
      if (!account) throw new UsageError(action === 'create' ? `account '${name}' already exists` : `no account named '${name}'`);
      print(await describe(books, account));
    });
  }
  if (action === 'show' || action === 'list') {
    const { values, positionals } = parseFlags(`accounts ${action}`, rest, flags);
    noMorePositionals(`accounts ${action}`, positionals, action === 'show' ? 1 : 0);
    const name = action === 'show' ? checkAccountName(positionals[0]) : undefined;
    return withAccountBook(values, 'existing', async (books) => {
      if (name === undefined) {
        for (const account of await books.book.accounts()) print(await describe(books, account));
        return;
      }
      const account = await books.book.account(name);
      if (!account) throw new UsageError(`no account named '${name}'`);
      print(await describe(books, account));
    });
  }
  if (action === 'delete') {
    const { values, positionals } = parseFlags('accounts delete', rest, { ...flags, yes: { type: 'boolean' } });
    noMorePositionals('accounts delete', positionals, 1);
    const name = checkAccountName(positionals[0]);
    return withAccountBook(values, 'existing', async ({ book: accounts, forgetUsage }) => {
      if (!(await accounts.account(name))) throw new UsageError(`no account named '${name}'`);
      if (!values.yes) {
        const tokens = (await accounts.tokensOf(name)).length;
        throw new UsageError(`accounts delete removes account '${name}', its ${tokens} token(s) and its usage: add --yes to confirm`);
      }
      const removed = await accounts.deleteAccount(name);
      await forgetUsage(name);
      print(`deleted account ${name} and its ${removed ?? 0} token(s)`);
    });
  }
  throw new UsageError(`unknown accounts command '${action ?? ''}': use create, show, list, update or delete`);
}
