// `datapoints accounts ...` (docs/operations.md#accounts): the spec's dashboard on the command line,
// on a data directory or, with --nats, the cluster's accounts (docs/cluster.md#accounts-and-tokens).
import { monthOf, nextMonthStart } from '../access/calendar.js';
import { checkAccountName, checkReason, settingsFrom } from '../access/accountInput.js';
import { createAccount, updateAccount } from '../access/provisioning.js';
import { flagBounds } from '../config.js';
import { AccountStore, type AccountRecord, accountNamedLike } from '../store/accountStore.js';
import { DailyUsage } from '../store/dailyUsage.js';
import { natsFlag, withAccountBook, type AccountData } from './accountBook.js';
import { dataDirSetting, dataFlag, withDataStore } from './dataStore.js';
import { inviteAccount, inviteFlags } from './inviteCommand.js';
import { noMorePositionals, parseFlags } from './flags.js';
import { parseWholeNumber } from '../operatorInput.js';
import { MissingSubcommand, UsageError } from '../usageError.js';

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
    suspended: account.suspended ? { at: account.suspended.at, reason: account.suspended.reason } : null,
    ...(account.operator ? { operator: true } : {}),
  };
}

/** Why `accounts create NAME` was refused: the name, or one differing only by case, is taken. */
async function takenMessage({ book }: AccountData, name: string): Promise<string> {
  const existing = accountNamedLike(
    (await book.accounts()).map((account) => account.name),
    name,
  );
  if (existing === undefined || existing === name) return `account '${name}' already exists`;
  return `account '${existing}' already exists: names differing only by case are one account, so '${name}' cannot be created`;
}

const settingFlags = { plan: { type: 'string' }, quota: { type: 'string' }, rate: { type: 'string' } } as const;

/** `--operator` on create, `--operator true|false` on update (docs/dashboard.md#operator-role). */
function operatorSetting(action: 'create' | 'update', value: string | boolean | undefined): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  if (action === 'update' && (value === 'true' || value === 'false')) return value === 'true';
  throw new UsageError(`invalid --operator '${value}': use --operator true or --operator false`);
}

export async function accountsCommand(args: string[], print: (line: string) => void): Promise<void> {
  const [action, ...rest] = args;
  const now = Date.now();
  const describe = async ({ used }: AccountData, account: AccountRecord) =>
    JSON.stringify(describeAccount(account, await used(account.name, now), now));
  const flags = { ...dataFlag, ...natsFlag };

  if (action === 'create' || action === 'update') {
    const operatorFlag = { operator: { type: action === 'create' ? 'boolean' : 'string' } } as const;
    const { values, positionals } = parseFlags(`accounts ${action}`, rest, { ...flags, ...settingFlags, ...operatorFlag });
    noMorePositionals(`accounts ${action}`, positionals, 1);
    const name = checkAccountName(positionals[0]);
    const settings = settingsFrom(values);
    const operator = operatorSetting(action, values.operator);
    if (action === 'update' && Object.keys(settings).length === 0 && operator === undefined)
      throw new UsageError('accounts update needs --plan, --quota, --rate or --operator');
    const mode = action === 'create' ? 'create' : 'existing';
    return withAccountBook(values, mode, async (accountData) => {
      const accounts = accountData.book;
      const account =
        action === 'create'
          ? await createAccount(accounts, name, { plan: 'free', ...settings }, now)
          : await updateAccount(accounts, name, settings);
      if (!account) throw new UsageError(action === 'create' ? await takenMessage(accountData, name) : `no account named '${name}'`);
      const withRole = operator === undefined ? account : await accounts.updateAccount(name, { operator });
      print(await describe(accountData, withRole ?? account));
    });
  }
  if (action === 'show' || action === 'list') {
    const { values, positionals } = parseFlags(`accounts ${action}`, rest, flags);
    noMorePositionals(`accounts ${action}`, positionals, action === 'show' ? 1 : 0);
    const name = action === 'show' ? checkAccountName(positionals[0]) : undefined;
    return withAccountBook(values, 'existing', async (accountData) => {
      if (name === undefined) {
        for (const account of await accountData.book.accounts()) print(await describe(accountData, account));
        return;
      }
      const account = await accountData.book.account(name);
      if (!account) throw new UsageError(`no account named '${name}'`);
      print(await describe(accountData, account));
    });
  }
  if (action === 'suspend' || action === 'resume') {
    const actionFlags = action === 'suspend' ? ({ ...flags, reason: { type: 'string' } } as const) : flags;
    const { values, positionals } = parseFlags(`accounts ${action}`, rest, actionFlags);
    noMorePositionals(`accounts ${action}`, positionals, 1);
    const name = checkAccountName(positionals[0]);
    const reason = 'reason' in values && typeof values.reason === 'string' ? checkReason(values.reason) : null;
    return withAccountBook(values, 'existing', async (accountData) => {
      const account =
        action === 'suspend'
          ? await accountData.book.suspendAccount(name, new Date(now).toISOString(), reason)
          : await accountData.book.resumeAccount(name);
      if (!account) throw new UsageError(`no account named '${name}'`);
      print(await describe(accountData, account));
    });
  }
  if (action === 'usage') {
    const { values, positionals } = parseFlags('accounts usage', rest, { ...dataFlag, ...natsFlag, days: { type: 'string' } });
    noMorePositionals('accounts usage', positionals, 1);
    // docs/cluster.md#invites-and-usage-from-the-command-line
    if (values.nats !== undefined) {
      throw new UsageError(
        "accounts usage reads a data directory, not NATS: on a cluster give a node's --data, which holds the cluster's daily counts",
      );
    }
    const name = checkAccountName(positionals[0]);
    const days =
      values.days === undefined
        ? flagBounds.usageDays.default
        : parseWholeNumber({ text: values.days, source: '--days' }, 1, flagBounds.usageDays.max);
    return withDataStore(dataDirSetting(values.data), 'existing', (dbs) => {
      if (!new AccountStore(dbs).account(name)) throw new UsageError(`no account named '${name}'`);
      for (const count of new DailyUsage(dbs).lastDays(name, days, now)) print(JSON.stringify(count));
    });
  }
  if (action === 'delete') {
    const { values, positionals } = parseFlags('accounts delete', rest, { ...flags, yes: { type: 'boolean' } });
    noMorePositionals('accounts delete', positionals, 1);
    const name = checkAccountName(positionals[0]);
    return withAccountBook(values, 'existing', async ({ book: accounts, forget }) => {
      if (!(await accounts.account(name))) throw new UsageError(`no account named '${name}'`);
      if (!values.yes) {
        const tokens = (await accounts.tokensOf(name)).length;
        throw new UsageError(`accounts delete removes account '${name}', its ${tokens} token(s) and its usage: add --yes to confirm`);
      }
      const removed = await accounts.deleteAccount(name);
      await forget(name);
      print(`deleted account ${name} and its ${removed ?? 0} token(s)`);
    });
  }
  if (action === 'invite') {
    const { values, positionals } = parseFlags('accounts invite', rest, inviteFlags);
    noMorePositionals('accounts invite', positionals, 1);
    return inviteAccount(checkAccountName(positionals[0]), values, print);
  }
  if (action === undefined) throw new MissingSubcommand('accounts');
  throw new UsageError(`unknown accounts command '${action}': use create, show, list, update, suspend, resume, usage, delete or invite`);
}
