// Creating accounts and tokens: the "dashboard" of docs/api.md#a-35, shared by the CLI and tests.
import { generateToken } from '../auth/tokens.js';
import { plans, type PlanName, type RatePolicy } from '../config.js';
import type { AccountChanges, AccountRecord, AccountStore } from '../store/accountStore.js';

/** The writes provisioning makes: the data directory's AccountStore, or the cluster's accounts. */
export type AccountWrites = Pick<AccountStore, 'createAccount' | 'updateAccount' | 'addToken'>;

export interface AccountSettings {
  plan?: PlanName;
  /** Overrides the plan's monthly quota; null for none. */
  quota?: number | null;
  rate?: RatePolicy;
}

/** The new account, or undefined when the name is taken. */
export async function createAccount(
  accounts: AccountWrites,
  name: string,
  settings: AccountSettings,
  now: number,
): Promise<AccountRecord | undefined> {
  const plan = plans[settings.plan ?? 'free'];
  const account: AccountRecord = {
    name,
    plan: settings.plan ?? 'free',
    quota: settings.quota === undefined ? plan.quota : settings.quota,
    rate: settings.rate ?? plan.rate,
    createdAt: new Date(now).toISOString(),
  };
  return (await accounts.createAccount(account)) ? account : undefined;
}

/**
 * Changes an account's settings. A new plan brings its own quota and rate unless they are
 * given too (docs/operations.md#accounts). Undefined when there is no such account.
 */
export function updateAccount(accounts: AccountWrites, name: string, settings: AccountSettings): Promise<AccountRecord | undefined> {
  const plan = settings.plan === undefined ? undefined : plans[settings.plan];
  const changes: AccountChanges = {
    ...(settings.plan === undefined ? {} : { plan: settings.plan, quota: plan!.quota, rate: plan!.rate }),
    ...(settings.quota === undefined ? {} : { quota: settings.quota }),
    ...(settings.rate === undefined ? {} : { rate: settings.rate }),
  };
  return accounts.updateAccount(name, changes);
}

/** Issues a token for an existing account; the secret is returned once and never stored. */
export async function issueToken(
  accounts: AccountWrites,
  account: string,
  now: number,
  note: string | null = null,
): Promise<{ id: string; secret: string }> {
  const token = generateToken();
  await accounts.addToken({
    id: token.id,
    account,
    digest: token.digest,
    createdAt: new Date(now).toISOString(),
    lastUsedAt: null,
    revokedAt: null,
    shown: token.shown,
    note,
  });
  return { id: token.id, secret: token.secret };
}
