// `datapoints tokens create|list|revoke` (operator-interface.md). The secret is printed once,
// at creation, and only its digest is stored (service-spec 5).
import { parseArgs } from 'node:util';
import { issueToken } from '../access/provisioning.js';
import { AccountStore } from '../store/accountStore.js';
import { openDatabases } from '../store/environment.js';
import { checkAccountName } from './accountCommands.js';
import { UsageError } from './usageError.js';

export async function tokensCommand(args: string[], print: (line: string) => void): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { data: { type: 'string', default: './data' } },
  });
  if (positionals.length !== 1) throw new UsageError(`tokens ${action ?? ''} takes exactly one argument`);
  const [subject] = positionals as [string];
  if (action !== 'create' && action !== 'list' && action !== 'revoke') {
    throw new UsageError(`unknown tokens command '${action ?? ''}': use create, list or revoke`);
  }
  const dbs = openDatabases(values.data);
  const accounts = new AccountStore(dbs);
  try {
    if (action === 'revoke') {
      const revoked = await accounts.revokeToken(subject, new Date().toISOString());
      if (!revoked) throw new UsageError(`no token with id '${subject}'`);
      print(`revoked ${revoked.id} of account ${revoked.account}`);
      return;
    }
    const name = checkAccountName(subject);
    if (!accounts.account(name)) throw new UsageError(`no account named '${name}'`);
    if (action === 'create') {
      const token = await issueToken(accounts, name, Date.now());
      print(`created token ${token.id} for account ${name}; it is shown only once:`);
      print(token.secret);
      return;
    }
    for (const token of accounts.tokensOf(name)) {
      print(JSON.stringify({ id: token.id, created_at: token.createdAt, last_used_at: token.lastUsedAt, revoked_at: token.revokedAt }));
    }
  } finally {
    await dbs.root.close();
  }
}
