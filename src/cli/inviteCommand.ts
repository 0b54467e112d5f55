// `datapoints accounts invite NAME [--url URL]` (docs/dashboard.md#sign-in): prints a one-time link
// where the account's holder sets a dashboard password; with --nats any node accepts it.
import { serveDefaults } from '../config.js';
import { createInvite, inviteLink } from '../web/invites.js';
import { natsFlag, withAccountBook } from './accountBook.js';
import { dataFlag } from './dataStore.js';
import { setting } from './flags.js';
import { UsageError } from '../usageError.js';

/**
 * Where the dashboard is reached: `--url`, DATAPOINTS_URL, or the default port on this machine.
 * A cluster's nodes have no default port to assume (docs/cluster.md#invites-and-usage-from-the-command-line).
 */
function baseUrl(flag: string | undefined, cluster: boolean): string {
  const given = setting(flag, 'url', 'DATAPOINTS_URL');
  if (!given && cluster) {
    throw new UsageError('accounts invite --nats needs --url URL (or DATAPOINTS_URL): the address browsers reach a node at');
  }
  const value = given ?? { text: `http://localhost:${serveDefaults.port}`, source: '--url' };
  try {
    const url = new URL(value.text);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.search === '' && url.hash === '')
      return url.origin + url.pathname.replace(/\/+$/, '');
  } catch {
    // reported below
  }
  throw new UsageError(`invalid ${value.source} '${value.text}': give the server's address, like http://HOST:PORT`);
}

export const inviteFlags = { ...dataFlag, ...natsFlag, url: { type: 'string' } } as const;

/** Invites account `name` (already checked), with the flags parsed from `inviteFlags`. */
export async function inviteAccount(
  name: string,
  values: { data?: string | undefined; nats?: string | undefined; url?: string | undefined },
  print: (line: string) => void,
): Promise<void> {
  const base = baseUrl(values.url, values.nats !== undefined);
  return withAccountBook(values, 'existing', async ({ book, invites }) => {
    if (!(await book.account(name))) throw new UsageError(`no account named '${name}'`);
    const invite = await createInvite(invites, name, Date.now());
    print(`invite for account ${name}, valid until ${new Date(invite.expiresAt).toISOString()}; it works once:`);
    print(inviteLink(base, invite.secret));
  });
}
