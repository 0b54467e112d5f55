// What every dashboard and console handler may use, built once per server thread.
import type { Logger } from '../log.js';
import type { AccountChangeWrites, AccountStore } from '../store/accountStore.js';
import type { DailyUsage } from '../store/dailyUsage.js';
import type { ResourceStore } from '../store/resourceStore.js';
import type { UsageStore } from '../seams/quotaLedger/usageStore.js';
import type { WebRecords, WebStore } from '../seams/webRecords/webStore.js';
import type { WebRequest } from './answers.js';
import type { Viewer } from './layout.js';
import type { PlatformStatusSource } from '../operations/platformStatus.js';
import type { Sessions } from './sessions.js';
import type { PasswordHashing } from './passwordHasher.js';
import type { SigninThrottle } from './signinThrottle.js';

export interface WebContext {
  accounts: AccountStore;
  /** How the dashboard and console change accounts and tokens: the node's choice (docs/dashboard.md#in-a-cluster). */
  accountWrites: AccountChangeWrites;
  usage: UsageStore;
  daily: DailyUsage;
  /** Snapshots and transition histories, read for the resource inspector. */
  resources: ResourceStore;
  store: WebStore;
  /** Where invites, passwords and sessions are written: the node's choice (docs/dashboard.md#in-a-cluster). */
  records: WebRecords;
  sessions: Sessions;
  throttle: SigninThrottle;
  /** Where passwords are hashed: the node's hasher, off libuv's pool (docs/dashboard.md#password-hashing). */
  hasher: PasswordHashing;
  platforms: PlatformStatusSource | undefined;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
  now(): number;
  /** Holds a throttled sign-in's answer (docs/dashboard.md#rate-limits). */
  sleep(ms: number): Promise<void>;
}

/** The signed-in account of the request, when its session names one that still exists. */
export function viewerOf(context: WebContext, request: WebRequest): Viewer | undefined {
  const { session } = request;
  if (!session || session.record.account === null) return undefined;
  context.accounts.refresh();
  const account = context.accounts.account(session.record.account);
  return account ? { account: account.name, operator: account.operator === true, session } : undefined;
}
