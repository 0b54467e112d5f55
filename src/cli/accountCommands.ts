// `datapoints accounts create|show` (operator-interface.md): the dashboard of the spec.
import { parseArgs } from 'node:util';
import { monthOf, nextMonthStart } from '../access/calendar.js';
import { createAccount } from '../access/provisioning.js';
import { plans, type PlanName, type RatePolicy } from '../config.js';
import { parseDuration } from '../duration.js';
import { AccountStore, type AccountRecord } from '../store/accountStore.js';
import { openDatabases } from '../store/environment.js';
import { UsageStore } from '../store/usageStore.js';
import { UsageError } from './usageError.js';

const accountName = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkAccountName(name: string | undefined): string {
  if (name === undefined) throw new UsageError('an account NAME is required');
  if (!accountName.test(name)) throw new UsageError(`invalid account name '${name}': use 1-64 letters, digits, '.', '_' or '-'`);
  return name;
}

function parseQuota(text: string): number | null {
  if (text === 'none') return null;
  if (!/^\d+$/.test(text)) throw new UsageError(`invalid --quota '${text}': give a whole number or 'none'`);
  return Number(text);
}

function parseRate(text: string): RatePolicy {
  const match = /^(\d+)\/(.+)$/.exec(text);
  if (!match || Number(match[1]) < 1) throw new UsageError(`invalid --rate '${text}': write it like 60/1m`);
  try {
    const windowMs = parseDuration(match[2]!);
    if (windowMs < 1) throw new Error('empty window');
    return { limit: Number(match[1]), windowMs };
  } catch {
    throw new UsageError(`invalid --rate '${text}': write it like 60/1m`);
  }
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

export async function accountsCommand(args: string[], print: (line: string) => void): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      data: { type: 'string', default: './data' },
      plan: { type: 'string' },
      quota: { type: 'string' },
      rate: { type: 'string' },
    },
  });
  if (positionals.length > 1) throw new UsageError(`unexpected argument '${positionals[1]}'`);
  const name = checkAccountName(positionals[0]);
  const now = Date.now();

  if (action === 'create') {
    const planName = (values.plan ?? 'free') as PlanName;
    if (!Object.hasOwn(plans, planName)) throw new UsageError(`invalid --plan '${values.plan}': use free or paid`);
    const settings = {
      plan: planName,
      ...(values.quota === undefined ? {} : { quota: parseQuota(values.quota) }),
      ...(values.rate === undefined ? {} : { rate: parseRate(values.rate) }),
    };
    const dbs = openDatabases(values.data);
    try {
      const account = await createAccount(new AccountStore(dbs), name, settings, now);
      if (!account) throw new UsageError(`account '${name}' already exists`);
      print(JSON.stringify(describeAccount(account, 0, now)));
    } finally {
      await dbs.root.close();
    }
    return;
  }
  if (action === 'show') {
    if (values.plan !== undefined || values.quota !== undefined || values.rate !== undefined) {
      throw new UsageError('accounts show takes only NAME and --data');
    }
    const dbs = openDatabases(values.data);
    try {
      const account = new AccountStore(dbs).account(name);
      if (!account) throw new UsageError(`no account named '${name}'`);
      print(JSON.stringify(describeAccount(account, new UsageStore(dbs).used(name, monthOf(now)), now)));
    } finally {
      await dbs.root.close();
    }
    return;
  }
  throw new UsageError(`unknown accounts command '${action ?? ''}': use create or show`);
}
