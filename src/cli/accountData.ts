// What the account, token and invite commands read and write, over the data directory or the
// cluster alike (src/cli/accountBook.ts opens one or the other).
import type { AccountRecord, AccountStore, TokenRecord } from '../store/accountStore.js';
import type { WebRecords } from '../seams/webRecords/webStore.js';

type Answer<T> = T | Promise<T>;

/** What the account and token commands need of a store; AccountStore and ClusterAccounts both have it. */
export interface AccountBook {
  account(name: string): Answer<AccountRecord | undefined>;
  accounts(): Answer<AccountRecord[]>;
  token(id: string): Answer<TokenRecord | undefined>;
  tokenByDigest(digest: string): Answer<TokenRecord | undefined>;
  tokensOf(account: string): Answer<TokenRecord[]>;
  createAccount(account: AccountRecord): Promise<boolean>;
  updateAccount: AccountStore['updateAccount'];
  suspendAccount: AccountStore['suspendAccount'];
  resumeAccount: AccountStore['resumeAccount'];
  deleteAccount(name: string): Promise<number | undefined>;
  addToken(token: TokenRecord): Promise<void>;
  revokeToken(id: string, at: string): Promise<TokenRecord | undefined>;
}

export interface AccountData {
  book: AccountBook;
  /** Requests of the account counted (or reserved) in the month of `now`. */
  used(account: string, now: number): Promise<number>;
  /**
   * Removes what else is kept of a deleted account: its usage, daily counts and dashboard records
   * (the data directory's go with the account itself).
   */
  forget(account: string): Promise<void>;
  /** Where `accounts invite` writes its invite. */
  invites: Pick<WebRecords, 'addInvite'>;
}
