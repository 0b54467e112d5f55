// `datapoints accounts invite NAME [--url URL]` (docs/dashboard.md, "Sign-in"): prints a
// one-time link, valid 24 hours, where the account's holder sets a dashboard password. The
// secret is in the link's fragment, which no server or log ever sees; only its digest is stored.
import { serveDefaults } from '../config.js';
import { AccountStore } from '../store/accountStore.js';
import { WebStore } from '../store/webStore.js';
import { createInvite, inviteLink } from '../web/invites.js';
import { dataDirSetting, dataFlag, withDataStore } from './dataStore.js';
import { setting } from './flags.js';
import { UsageError } from './usageError.js';

/** Where the dashboard is reached: `--url`, DATAPOINTS_URL, or the default port on this machine. */
function baseUrl(flag: string | undefined): string {
  const value = setting(flag, 'url', 'DATAPOINTS_URL') ?? { text: `http://localhost:${serveDefaults.port}`, source: '--url' };
  try {
    const url = new URL(value.text);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.search === '' && url.hash === '')
      return url.origin + url.pathname.replace(/\/+$/, '');
  } catch {
    // reported below
  }
  throw new UsageError(`invalid ${value.source} '${value.text}': give the server's address, like http://HOST:PORT`);
}

export const inviteFlags = { ...dataFlag, url: { type: 'string' } } as const;

/** Invites account `name` (already checked), with the flags parsed from `inviteFlags`. */
export async function inviteAccount(
  name: string,
  values: { data?: string | undefined; url?: string | undefined },
  print: (line: string) => void,
): Promise<void> {
  const base = baseUrl(values.url);
  return withDataStore(dataDirSetting(values.data), 'existing', async (dbs) => {
    if (!new AccountStore(dbs).account(name)) throw new UsageError(`no account named '${name}'`);
    const invite = await createInvite(new WebStore(dbs), name, Date.now());
    print(`invite for account ${name}, valid until ${new Date(invite.expiresAt).toISOString()}; it works once:`);
    print(inviteLink(base, invite.secret));
  });
}
