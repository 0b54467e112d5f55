// `datapoints tokens create|list|revoke` (docs/operations.md#commands; docs/operations.md#tokens).
// The secret is printed once, at creation; only its digest and first characters are stored.
import { issueToken } from '../access/provisioning.js';
import { digestToken, looksLikeSecret, tokenNoteProblem } from '../auth/tokens.js';
import type { TokenRecord } from '../store/accountStore.js';
import { natsFlag, withAccountBook, type AccountBook } from './accountBook.js';
import { checkAccountName } from '../access/accountInput.js';
import { dataFlag } from './dataStore.js';
import { noMorePositionals, parseFlags } from './flags.js';
import { MissingSubcommand, UsageError } from '../usageError.js';

function checkNote(note: string | undefined): string | null {
  if (note === undefined) return null;
  const problem = tokenNoteProblem(note);
  if (problem) throw new UsageError(`invalid --note: ${problem}`);
  return note;
}

function describeToken(token: TokenRecord) {
  return {
    id: token.id,
    // Older tokens kept no characters of their secret.
    starts_with: token.shown ?? null,
    note: token.note ?? null,
    created_at: token.createdAt,
    last_used_at: token.lastUsedAt,
    revoked_at: token.revokedAt,
  };
}

/** A token given by id, or by its secret (as an operator holding a leaked secret would). */
async function findToken(accounts: AccountBook, subject: string): Promise<TokenRecord> {
  const token = looksLikeSecret(subject) ? await accounts.tokenByDigest(digestToken(subject)) : await accounts.token(subject);
  if (token) return token;
  throw new UsageError(looksLikeSecret(subject) ? 'no token has that secret' : `no token with id '${subject}'`);
}

export async function tokensCommand(args: string[], print: (line: string) => void): Promise<void> {
  const [action, ...rest] = args;
  if (action === undefined) throw new MissingSubcommand('tokens');
  if (action !== 'create' && action !== 'list' && action !== 'revoke') {
    throw new UsageError(`unknown tokens command '${action}': use create, list or revoke`);
  }
  const flags = action === 'create' ? ({ ...dataFlag, ...natsFlag, note: { type: 'string' } } as const) : { ...dataFlag, ...natsFlag };
  const { values, positionals } = parseFlags(`tokens ${action}`, rest, flags);
  noMorePositionals(`tokens ${action}`, positionals, 1);
  const subject = positionals[0];
  if (subject === undefined)
    throw new UsageError(`tokens ${action} needs ${action === 'revoke' ? 'a TOKEN_ID or the secret' : 'an account NAME'}`);
  const note = 'note' in values && typeof values.note === 'string' ? checkNote(values.note) : null;
  // Every token command needs an account that exists, so none of them creates a store.
  return withAccountBook(values, 'existing', async ({ book: accounts }) => {
    if (action === 'revoke') {
      const token = await findToken(accounts, subject);
      const at = new Date().toISOString();
      const revoked = await accounts.revokeToken(token.id, at);
      // A revocation keeps its first time: a second one changes nothing and says so, exit 0.
      if (revoked && revoked.revokedAt !== at) print(`${token.id} of account ${token.account} was already revoked at ${revoked.revokedAt}`);
      else print(`revoked ${token.id} of account ${token.account}`);
      return;
    }
    const name = checkAccountName(subject);
    if (!(await accounts.account(name))) throw new UsageError(`no account named '${name}'`);
    if (action === 'create') {
      const token = await issueToken(accounts, name, Date.now(), note);
      print(`created token ${token.id} for account ${name}; it is shown only once:`);
      print(token.secret);
      return;
    }
    for (const token of await accounts.tokensOf(name)) print(JSON.stringify(describeToken(token)));
  });
}
