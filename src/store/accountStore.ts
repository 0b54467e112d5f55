// Accounts and their tokens. Written by the CLI, read by the server; every change bumps
// `authVersion` so a running server notices it within one poll (docs/operations.md#commands).
import { DailyUsage } from './dailyUsage.js';
import type { Databases } from './environment.js';
import type { AccountRecord, AccountSuspension, TokenRecord } from './records.js';

export type { AccountRecord, AccountSuspension, TokenRecord } from './records.js';

/** What `accounts update` may change. */
export type AccountChanges = Partial<Pick<AccountRecord, 'plan' | 'quota' | 'rate' | 'operator'>>;

/**
 * The account and token changes the dashboard and console make (docs/dashboard.md#in-a-cluster): this store's for a node alone, the cluster's with `--nats`; each change is in this
 * node's LMDB by the time its promise resolves.
 */
export type AccountChangeWrites = Pick<
  AccountStore,
  'createAccount' | 'updateAccount' | 'suspendAccount' | 'resumeAccount' | 'addToken' | 'revokeToken'
>;

/**
 * A cluster node's way to hold everything its cluster holds now (docs/design/cluster.md#a-token-new-to-a-node):
 * `catchUp` resolves once every account and token the cluster held when it was called is in this
 * node's LMDB, and rejects when that cannot be known in time.
 */
export interface AccountsCatchUp {
  catchUp(): Promise<void>;
}

/** The name among `names` that equals `name` but for case, if any: such names are one account. */
export function accountNamedLike(names: Iterable<unknown>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const existing of names) if (typeof existing === 'string' && existing.toLowerCase() === wanted) return existing;
  return undefined;
}

export class AccountStore {
  constructor(private readonly dbs: Databases) {}

  account(name: string): AccountRecord | undefined {
    return this.dbs.accounts.get(name);
  }

  token(id: string): TokenRecord | undefined {
    return this.dbs.tokens.get(id);
  }

  tokenByDigest(digest: string): TokenRecord | undefined {
    const id = this.dbs.tokenDigests.get(digest);
    return id === undefined ? undefined : this.token(id);
  }

  accounts(): AccountRecord[] {
    const accounts: AccountRecord[] = [];
    for (const { value } of this.dbs.accounts.getRange()) accounts.push(value);
    return accounts;
  }

  tokensOf(account: string): TokenRecord[] {
    const tokens: TokenRecord[] = [];
    for (const { value: token } of this.dbs.tokens.getRange()) {
      if (token.account === account) tokens.push(token);
    }
    return tokens.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  authVersion(): number {
    return this.dbs.meta.get('authVersion') ?? 0;
  }

  /** Picks up writes made by other processes since the last read. */
  refresh(): void {
    this.dbs.root.resetReadTxn();
  }

  /**
   * Creates the account unless the name is taken, ignoring case (docs/operations.md#accounts);
   * resolves false when it was. Checked inside the write, so two creates cannot both pass.
   */
  createAccount(account: AccountRecord): Promise<boolean> {
    return this.dbs.root.transaction(() => {
      if (accountNamedLike(this.dbs.accounts.getKeys(), account.name) !== undefined) return false;
      this.dbs.accounts.put(account.name, account);
      this.bumpAuthVersion();
      return true;
    });
  }

  addToken(token: TokenRecord): Promise<void> {
    return this.dbs.root.transaction(() => {
      this.dbs.tokens.put(token.id, token);
      this.dbs.tokenDigests.put(token.digest, token.id);
      this.bumpAuthVersion();
    });
  }

  /** The updated account, or undefined when there is none of that name. */
  updateAccount(name: string, changes: AccountChanges): Promise<AccountRecord | undefined> {
    return this.dbs.root.transaction(() => {
      const account = this.account(name);
      if (!account) return undefined;
      const updated = { ...account, ...changes };
      this.dbs.accounts.put(name, updated);
      this.bumpAuthVersion();
      return updated;
    });
  }

  /**
   * Suspends the account (docs/operations.md#accounts). An account already suspended keeps
   * its time; a `reason` given replaces the one it had. Undefined when there is no such account.
   */
  suspendAccount(name: string, at: string, reason: string | null): Promise<AccountRecord | undefined> {
    return this.dbs.root.transaction(() => {
      const account = this.account(name);
      if (!account) return undefined;
      const suspended: AccountSuspension = { at: account.suspended?.at ?? at, reason: reason ?? account.suspended?.reason ?? null };
      const updated: AccountRecord = { ...account, suspended };
      this.dbs.accounts.put(name, updated);
      this.bumpAuthVersion();
      return updated;
    });
  }

  /** Lifts a suspension; an account not suspended is left as it is. Undefined when there is no such account. */
  resumeAccount(name: string): Promise<AccountRecord | undefined> {
    return this.dbs.root.transaction(() => {
      const account = this.account(name);
      if (!account) return undefined;
      if (!account.suspended) return account;
      const { suspended: _lifted, ...resumed } = account;
      this.dbs.accounts.put(name, resumed);
      this.bumpAuthVersion();
      return resumed;
    });
  }

  /**
   * Removes the account with its tokens and usage counts, so that a later account of the same
   * name starts afresh. Resolves the number of tokens removed, or undefined when there was none.
   */
  deleteAccount(name: string): Promise<number | undefined> {
    return this.dbs.root.transaction(() => {
      if (!this.account(name)) return undefined;
      const tokens = this.tokensOf(name);
      for (const token of tokens) {
        this.dbs.tokens.remove(token.id);
        this.dbs.tokenDigests.remove(token.digest);
      }
      for (const { key } of this.dbs.usage.getRange({ start: [name], end: [name, '\uffff'] })) this.dbs.usage.remove(key);
      // A later account of the same name must not inherit the dashboard password or sessions.
      this.dbs.passwords.remove(name);
      for (const { key, value } of this.dbs.sessions.getRange()) if (value.account === name) this.dbs.sessions.remove(key);
      new DailyUsage(this.dbs).removeAccount(name);
      this.dbs.accounts.remove(name);
      this.bumpAuthVersion();
      return tokens.length;
    });
  }

  revokeToken(id: string, at: string): Promise<TokenRecord | undefined> {
    return this.dbs.root.transaction(() => {
      const token = this.token(id);
      if (!token) return undefined;
      const revoked = { ...token, revokedAt: token.revokedAt ?? at };
      this.dbs.tokens.put(id, revoked);
      this.bumpAuthVersion();
      return revoked;
    });
  }

  /**
   * Writes the account as the cluster holds it (docs/cluster.md#accounts-and-tokens); false
   * when it is already so, so that a node catching up bumps nothing for records it has.
   */
  replicateAccount(account: AccountRecord): Promise<boolean> {
    return this.dbs.root.transaction(() => {
      if (JSON.stringify(this.account(account.name)) === JSON.stringify(account)) return false;
      this.dbs.accounts.put(account.name, account);
      this.bumpAuthVersion();
      return true;
    });
  }

  /** Writes the token as the cluster holds it, keeping this node's last-used time; false when it is already so. */
  replicateToken(token: TokenRecord): Promise<boolean> {
    return this.dbs.root.transaction(() => {
      const known = this.token(token.id);
      const replicated = { ...token, lastUsedAt: known?.lastUsedAt ?? null };
      if (JSON.stringify(known) === JSON.stringify(replicated)) return false;
      if (known && known.digest !== token.digest) this.dbs.tokenDigests.remove(known.digest);
      this.dbs.tokens.put(token.id, replicated);
      this.dbs.tokenDigests.put(token.digest, token.id);
      this.bumpAuthVersion();
      return true;
    });
  }

  /** Removes a token the cluster no longer holds; false when there was none. */
  removeToken(id: string): Promise<boolean> {
    return this.dbs.root.transaction(() => {
      const known = this.token(id);
      if (!known) return false;
      this.dbs.tokens.remove(id);
      this.dbs.tokenDigests.remove(known.digest);
      this.bumpAuthVersion();
      return true;
    });
  }

  /** Not an auth change: it does not bump the version, so it never flushes server caches. */
  touchToken(id: string, at: string): Promise<void> {
    return this.dbs.root.transaction(() => {
      const token = this.token(id);
      if (token) this.dbs.tokens.put(id, { ...token, lastUsedAt: at });
    });
  }

  private bumpAuthVersion() {
    this.dbs.meta.put('authVersion', this.authVersion() + 1);
  }
}
