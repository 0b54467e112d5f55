// What the dashboard keeps (docs/dashboard.md, "Sign-in"): password hashes, invites and
// sessions, each invite and session under the SHA-256 digest of its secret, never the secret
// itself; and the sign-in attempts the throttle counts. Every record is written in one
// transaction, so every thread and process sees the same sessions and attempts.
import type { Databases } from './environment.js';

/** An scrypt hash with the parameters it was made with, so that they can change later. */
export interface PasswordRecord {
  /** base64 */
  salt: string;
  /** base64 */
  hash: string;
  /** scrypt cost (N), block size (r), parallelism (p) and key length. */
  cost: number;
  blockSize: number;
  parallelization: number;
  keyLength: number;
  setAt: string;
}

export interface InviteRecord {
  account: string;
  /** ms since the epoch */
  expiresAt: number;
}

export interface SessionRecord {
  /** null: not signed in yet (a sign-in form's session, which carries its CSRF token). */
  account: string | null;
  /** The synchronizer token every form of this session must send back. */
  csrf: string;
  /** ms since the epoch */
  expiresAt: number;
}

export interface AttemptRecord {
  failures: number;
  /** When the first failure of this window was counted (ms since the epoch). */
  since: number;
}

export class WebStore {
  constructor(private readonly dbs: Databases) {}

  password(account: string): PasswordRecord | undefined {
    return this.dbs.passwords.get(account);
  }

  session(digest: string): SessionRecord | undefined {
    return this.dbs.sessions.get(digest);
  }

  attempts(key: string): AttemptRecord | undefined {
    return this.dbs.signinAttempts.get(key);
  }

  /** Picks up writes made by other threads and processes since the last read. */
  refresh(): void {
    this.dbs.root.resetReadTxn();
  }

  addInvite(digest: string, invite: InviteRecord): Promise<boolean> {
    return this.dbs.invites.put(digest, invite);
  }

  /**
   * Takes an invite once: the invite of `digest` when it exists and is unexpired at `now`, and
   * the password set from it, in one transaction. Undefined (and nothing written) otherwise.
   */
  redeemInvite(digest: string, now: number, password: (account: string) => PasswordRecord | undefined): Promise<string | undefined> {
    return this.dbs.root.transaction(() => {
      const invite = this.dbs.invites.get(digest);
      if (!invite || invite.expiresAt <= now || !this.dbs.accounts.get(invite.account)) return undefined;
      const record = password(invite.account);
      if (!record) return undefined;
      this.dbs.invites.remove(digest);
      this.dbs.passwords.put(invite.account, record);
      return invite.account;
    });
  }

  invite(digest: string): InviteRecord | undefined {
    return this.dbs.invites.get(digest);
  }

  /** Writes `session` and removes `replaced` (the session it rotates) in one transaction. */
  putSession(digest: string, session: SessionRecord, replaced?: string): Promise<void> {
    return this.dbs.root.transaction(() => {
      if (replaced !== undefined) this.dbs.sessions.remove(replaced);
      this.dbs.sessions.put(digest, session);
    });
  }

  removeSession(digest: string): Promise<boolean> {
    return this.dbs.sessions.remove(digest);
  }

  /**
   * Removes the sessions and invites expired at `now` among `limit` of each, looked at from
   * `from` on (a digest prefix): a sign-in form creates a session each time, and digests are
   * spread evenly, so sweeps from random places reach every part of the key range.
   */
  sweep(now: number, limit: number, from: string): Promise<void> {
    return this.dbs.root.transaction(() => {
      for (const { key, value } of this.dbs.sessions.getRange({ start: from, limit })) {
        if (value.expiresAt <= now) this.dbs.sessions.remove(key);
      }
      for (const { key, value } of this.dbs.invites.getRange({ start: from, limit })) {
        if (value.expiresAt <= now) this.dbs.invites.remove(key);
      }
    });
  }

  /** Counts a failed sign-in under `key`, starting a new window once `windowMs` has passed. */
  countFailure(key: string, now: number, windowMs: number): Promise<AttemptRecord> {
    return this.dbs.root.transaction(() => {
      const previous = this.dbs.signinAttempts.get(key);
      const attempt =
        previous && now - previous.since < windowMs
          ? { failures: previous.failures + 1, since: previous.since }
          : { failures: 1, since: now };
      this.dbs.signinAttempts.put(key, attempt);
      return attempt;
    });
  }

  clearFailures(key: string): Promise<boolean> {
    return this.dbs.signinAttempts.remove(key);
  }
}
