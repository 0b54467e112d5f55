// Accounts and tokens of a cluster (docs/cluster.md#accounts-and-tokens): two NATS KV buckets, the
// cluster's one copy, written by `--nats` commands and replicated by every node (accountReplica.ts).
import { JetStreamApiCodes, JetStreamApiError, jetstream } from '@nats-io/jetstream';
import { Kvm, type KV, type KvEntry } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { clusterDefaults } from '../config.js';
import { bucketKeys } from './bucketKeys.js';
import { type AccountChanges, type AccountRecord, accountNamedLike, type TokenRecord } from '../store/accountStore.js';

export const accountsBucket = 'DATAPOINTS_ACCOUNTS';
export const tokensBucket = 'DATAPOINTS_TOKENS';

/** Changes of one record are revision-checked, so two operators changing one account at once both land, one after the other. */
export class ClusterAccounts {
  /** Creates the buckets, or opens them as another node or command created them. */
  static async open(connection: NatsConnection): Promise<ClusterAccounts> {
    const kvm = new Kvm(jetstream(connection, { timeout: clusterDefaults.requestTimeoutMs }));
    const [accounts, tokens] = await Promise.all([
      kvm.create(accountsBucket, { history: 1, replicas: 1 }),
      kvm.create(tokensBucket, { history: 1, replicas: 1 }),
    ]);
    return new ClusterAccounts(accounts, tokens);
  }

  private constructor(
    /** Key: the account name in base64url (names may hold '.', which splits KV keys); value: AccountRecord as JSON. */
    readonly accountEntries: KV,
    /** Key: the token id; value: TokenRecord as JSON, without a last-used time (each node keeps its own). */
    readonly tokenEntries: KV,
  ) {}

  async account(name: string): Promise<AccountRecord | undefined> {
    return readAccount(await this.accountEntries.get(accountKey(name)));
  }

  async accounts(): Promise<AccountRecord[]> {
    const found: AccountRecord[] = [];
    for (const key of await bucketKeys(this.accountEntries)) {
      const account = readAccount(await this.accountEntries.get(key));
      if (account) found.push(account);
    }
    return found.sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Creates the account unless the name is taken, ignoring case (docs/operations.md#accounts);
   * resolves false when it was. The case check reads the names first: two creates of names that
   * differ only by case at the same instant could both pass it (the same name cannot).
   */
  async createAccount(account: AccountRecord): Promise<boolean> {
    if (
      accountNamedLike(
        (await this.accounts()).map(({ name }) => name),
        account.name,
      ) !== undefined
    )
      return false;
    try {
      await this.accountEntries.create(accountKey(account.name), JSON.stringify(account));
      return true;
    } catch (error) {
      if (isRevisionRefusal(error)) return false;
      throw error;
    }
  }

  /** The updated account, or undefined when there is none of that name. */
  updateAccount(name: string, changes: AccountChanges): Promise<AccountRecord | undefined> {
    return changeEntry(this.accountEntries, accountKey(name), readAccount, (account) => ({ ...account, ...changes }));
  }

  /** docs/operations.md#accounts: the first suspension's time is kept, a new reason replaces the old. */
  suspendAccount(name: string, at: string, reason: string | null): Promise<AccountRecord | undefined> {
    return changeEntry(this.accountEntries, accountKey(name), readAccount, (account) => ({
      ...account,
      suspended: { at: account.suspended?.at ?? at, reason: reason ?? account.suspended?.reason ?? null },
    }));
  }

  resumeAccount(name: string): Promise<AccountRecord | undefined> {
    return changeEntry(this.accountEntries, accountKey(name), readAccount, ({ suspended: _lifted, ...resumed }) => resumed);
  }

  /** Removes the account and its tokens; resolves the number of tokens removed, or undefined when there was none. */
  async deleteAccount(name: string): Promise<number | undefined> {
    if (!(await this.account(name))) return undefined;
    const tokens = await this.tokensOf(name);
    // Tokens first: a node never sees a token whose account it still has and the cluster has not.
    for (const token of tokens) await this.tokenEntries.delete(token.id);
    await this.accountEntries.delete(accountKey(name));
    return tokens.length;
  }

  async token(id: string): Promise<TokenRecord | undefined> {
    return tokenKey.test(id) ? readToken(await this.tokenEntries.get(id)) : undefined;
  }

  async tokenByDigest(digest: string): Promise<TokenRecord | undefined> {
    return (await this.tokens()).find((token) => token.digest === digest);
  }

  async tokensOf(account: string): Promise<TokenRecord[]> {
    return (await this.tokens()).filter((token) => token.account === account).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async addToken(token: TokenRecord): Promise<void> {
    await this.tokenEntries.put(token.id, JSON.stringify({ ...token, lastUsedAt: null }));
  }

  revokeToken(id: string, at: string): Promise<TokenRecord | undefined> {
    return changeEntry(this.tokenEntries, id, readToken, (token) => ({ ...token, revokedAt: token.revokedAt ?? at }));
  }

  private async tokens(): Promise<TokenRecord[]> {
    const found: TokenRecord[] = [];
    for (const key of await bucketKeys(this.tokenEntries)) {
      const token = readToken(await this.tokenEntries.get(key));
      if (token) found.push(token);
    }
    return found;
  }
}

export function accountKey(name: string): string {
  return Buffer.from(name).toString('base64url');
}

/** Token ids are `tok_` and hex (src/auth/tokens.ts): valid KV keys as they are. */
const tokenKey = /^[A-Za-z0-9_-]+$/;

// What a KV entry must hold to be taken in: written by other processes, so checked, not trusted.
const whole = Type.Integer({ minimum: 0 });
const accountEntry = Compile(
  Type.Object({
    name: Type.String(),
    plan: Type.Union([Type.Literal('free'), Type.Literal('paid')]),
    quota: Type.Union([whole, Type.Null()]),
    rate: Type.Object({ limit: whole, windowMs: whole }),
    createdAt: Type.String(),
    operator: Type.Optional(Type.Boolean()),
    suspended: Type.Optional(Type.Object({ at: Type.String(), reason: Type.Union([Type.String(), Type.Null()]) })),
  }),
);
const tokenEntry = Compile(
  Type.Object({
    id: Type.String(),
    account: Type.String(),
    digest: Type.String(),
    createdAt: Type.String(),
    revokedAt: Type.Union([Type.String(), Type.Null()]),
    shown: Type.Optional(Type.String()),
    note: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  }),
);

/** The account an entry holds; undefined for a deleted entry or one that is not an account. */
export function readAccount(entry: KvEntry | null): AccountRecord | undefined {
  const value = parsed(entry);
  if (!accountEntry.Check(value)) return undefined;
  const { name, plan, quota, rate, createdAt, operator, suspended } = value;
  return {
    name,
    plan,
    quota,
    rate: { limit: rate.limit, windowMs: rate.windowMs },
    createdAt,
    ...(operator === undefined ? {} : { operator }),
    ...(suspended === undefined ? {} : { suspended: { at: suspended.at, reason: suspended.reason } }),
  };
}

/** The token an entry holds; undefined for a deleted entry or one that is not a token. */
export function readToken(entry: KvEntry | null): TokenRecord | undefined {
  const value = parsed(entry);
  if (!tokenEntry.Check(value)) return undefined;
  const { id, account, digest, createdAt, revokedAt, shown, note } = value;
  return {
    id,
    account,
    digest,
    createdAt,
    lastUsedAt: null,
    revokedAt,
    ...(shown === undefined ? {} : { shown }),
    ...(note === undefined ? {} : { note }),
  };
}

/** The JSON an entry holds; undefined for a deleted entry or one that is not JSON. */
export function parsed(entry: KvEntry | null): unknown {
  if (entry?.operation !== 'PUT') return undefined;
  try {
    return JSON.parse(entry.string());
  } catch {
    return undefined;
  }
}

/** Whether a revision-checked write was refused because another writer came between. */
export function isRevisionRefusal(error: unknown): boolean {
  return error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamWrongLastSequence;
}

/** Reads, changes and writes one entry back, again from the top when another writer came between. */
async function changeEntry<T>(
  bucket: KV,
  key: string,
  read: (entry: KvEntry | null) => T | undefined,
  change: (current: T) => T,
): Promise<T | undefined> {
  for (;;) {
    const entry = await bucket.get(key);
    const current = read(entry);
    if (current === undefined || entry === null) return undefined;
    const changed = change(current);
    try {
      await bucket.update(key, JSON.stringify(changed), entry.revision);
      return changed;
    } catch (error) {
      if (!isRevisionRefusal(error)) throw error;
    }
  }
}
