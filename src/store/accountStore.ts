// Accounts and their tokens. Written by the CLI, read by the server; every change bumps
// `authVersion` so a running server notices it within one poll (operator-interface.md).
import type { PlanName, RatePolicy } from '../config.js';
import type { Databases } from './environment.js';

export interface AccountRecord {
  name: string;
  plan: PlanName;
  quota: number | null;
  rate: RatePolicy;
  createdAt: string;
}

export interface TokenRecord {
  id: string;
  account: string;
  digest: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export class AccountStore {
  constructor(private readonly dbs: Databases) {}

  account(name: string): AccountRecord | undefined {
    return this.dbs.accounts.get(name) as AccountRecord | undefined;
  }

  token(id: string): TokenRecord | undefined {
    return this.dbs.tokens.get(id) as TokenRecord | undefined;
  }

  tokenByDigest(digest: string): TokenRecord | undefined {
    const id = this.dbs.tokenDigests.get(digest) as string | undefined;
    return id === undefined ? undefined : this.token(id);
  }

  tokensOf(account: string): TokenRecord[] {
    const tokens: TokenRecord[] = [];
    for (const { value } of this.dbs.tokens.getRange()) {
      const token = value as TokenRecord;
      if (token.account === account) tokens.push(token);
    }
    return tokens.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  authVersion(): number {
    return (this.dbs.meta.get('authVersion') as number | undefined) ?? 0;
  }

  /** Picks up writes made by other processes since the last read. */
  refresh(): void {
    this.dbs.root.resetReadTxn();
  }

  /** Creates the account unless the name is taken; resolves false when it was. */
  createAccount(account: AccountRecord): Promise<boolean> {
    return this.dbs.root.transaction(() => {
      if (this.dbs.accounts.get(account.name) !== undefined) return false;
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
