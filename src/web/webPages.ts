// The dashboard and the console as one registration for the HTTP server (docs/dashboard.md):
// the route table, and the context its handlers share, built from the thread's own handle on
// the data directory. Every edge thread builds its own; they share state only through LMDB.
import { createResourceMachine } from '../../machines/resource.js';
import { defaultPolicy } from '../config.js';
import type { Logger } from '../log.js';
import { AccountStore } from '../store/accountStore.js';
import { DailyUsage } from '../store/dailyUsage.js';
import { ResourceStore } from '../store/resourceStore.js';
import type { Databases } from '../store/environment.js';
import { UsageStore } from '../seams/quotaLedger/usageStore.js';
import { type DashboardWrites, WebStore } from '../seams/webRecords/webStore.js';
import type { Exchange } from '../http/reply.js';
import type { HttpRequest, TemplatedApp } from '../http/uws.js';
import type { WebContext } from './context.js';
import { invitePath } from './invites.js';
import { machineShape } from './machineDiagram.js';
import type { PlatformStatusSource } from '../operations/platformStatus.js';
import {
  consoleAccountsPath,
  createAccountFromConsole,
  inviteFromConsole,
  showAccounts,
  suspendFromConsole,
  updateAccountFromConsole,
} from './pages/console/accounts.js';
import { consoleEventsPath, consolePlatformsPath, livePlatforms, showPlatforms } from './pages/console/platforms.js';
import { consoleResourcesPath, showResource } from './pages/console/resources.js';
import { acceptInvite, showInvite, showSignin, signIn, signinPath, signOut } from './pages/signin.js';
import { confirmRevoke, createToken, revokePath, revokeToken, showTokens, tokensPath } from './pages/tokens.js';
import { showUsage, usagePath } from './pages/usage.js';
import { registerWebRoutes, type Route, type WebRouteOptions } from './routes.js';
import { Sessions } from './sessions.js';
import type { PasswordHashing } from './passwordHasher.js';
import { SigninThrottle } from './signinThrottle.js';

export interface WebPagesOptions extends WebRouteOptions {
  dbs: Databases;
  /** The platforms' live status, where this thread can know it; the console says so when absent. */
  platforms?: PlatformStatusSource | undefined;
  log: Logger;
  now?: () => number;
  /**
   * Where invites, passwords, sessions, accounts and tokens are written: the node's choice, the
   * data directory's LMDB or the cluster's (docs/dashboard.md#in-a-cluster).
   */
  writes: DashboardWrites;
  /** The node's password hasher (docs/dashboard.md#password-hashing). */
  hasher: PasswordHashing;
  /** How a throttled sign-in waits; a real timer unless a test records the waits instead. */
  sleep?: (ms: number) => Promise<void>;
}

/** What the HTTP server calls once, before its catch-all route, to add the pages. */
export type PageRegistration = (app: TemplatedApp, begin: (req: HttpRequest) => Exchange) => void;

export function webPages(options: WebPagesOptions): PageRegistration {
  const now = options.now ?? Date.now;
  const store = new WebStore(options.dbs);
  const { records } = options.writes;
  const accounts = new AccountStore(options.dbs);
  const context: WebContext = {
    accounts,
    accountWrites: options.writes.accounts,
    usage: new UsageStore(options.dbs),
    daily: new DailyUsage(options.dbs),
    resources: new ResourceStore(options.dbs),
    store,
    records,
    sessions: new Sessions(store, records, now),
    throttle: new SigninThrottle(store, now),
    hasher: options.hasher,
    platforms: options.platforms,
    log: options.log,
    now,
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
  };
  // The drawing depends on the machine's shape only, which no policy changes.
  const shape = machineShape(createResourceMachine(defaultPolicy));
  const routes: Route[] = [
    { method: 'get', path: signinPath, access: 'anyone', handle: showSignin },
    { method: 'post', path: signinPath, access: 'anyone', handle: signIn },
    { method: 'post', path: '/dashboard/signout', access: 'anyone', handle: signOut },
    { method: 'get', path: invitePath, access: 'anyone', handle: showInvite },
    { method: 'post', path: invitePath, access: 'anyone', handle: acceptInvite },
    { method: 'get', path: tokensPath, access: 'account', handle: showTokens },
    { method: 'post', path: tokensPath, access: 'account', handle: createToken },
    { method: 'get', path: revokePath, access: 'account', handle: confirmRevoke },
    { method: 'post', path: revokePath, access: 'account', handle: revokeToken },
    { method: 'get', path: usagePath, access: 'account', handle: (ctx, _request, viewer) => showUsage(ctx, viewer) },
    { method: 'get', path: consoleAccountsPath, access: 'operator', handle: showAccounts },
    { method: 'post', path: consoleAccountsPath, access: 'operator', handle: createAccountFromConsole },
    { method: 'post', path: `${consoleAccountsPath}/update`, access: 'operator', handle: updateAccountFromConsole },
    {
      method: 'post',
      path: `${consoleAccountsPath}/suspend`,
      access: 'operator',
      handle: (ctx, request, viewer) => suspendFromConsole(ctx, request, viewer, true),
    },
    {
      method: 'post',
      path: `${consoleAccountsPath}/resume`,
      access: 'operator',
      handle: (ctx, request, viewer) => suspendFromConsole(ctx, request, viewer, false),
    },
    { method: 'post', path: `${consoleAccountsPath}/invite`, access: 'operator', handle: inviteFromConsole },
    { method: 'get', path: consolePlatformsPath, access: 'operator', handle: (ctx, _request, viewer) => showPlatforms(ctx, viewer) },
    { method: 'get', path: consoleEventsPath, access: 'operator', events: { render: () => livePlatforms(context).text } },
    {
      method: 'get',
      path: consoleResourcesPath,
      access: 'operator',
      handle: (ctx, request, viewer) => showResource(ctx, request, viewer, shape),
    },
  ];
  return (app, begin) => registerWebRoutes(app, begin, context, routes, options);
}
