// What the dashboard keeps in the LMDB (docs/dashboard.md#sign-in): password hashes, invites and
// sessions (under the SHA-256 digest of their secret, never the secret), and sign-in attempts.
import type { Database } from 'lmdb';
import type { AccountChangeWrites } from '../../store/accountStore.js';
import type { Databases } from '../../store/environment.js';
import type { AttemptRecord, InviteRecord, PasswordRecord, SessionRecord } from '../../store/records.js';

export type { AttemptRecord, InviteRecord, PasswordRecord, SessionRecord } from '../../store/records.js';

/**
 * How invites, passwords and sessions are changed (docs/dashboard.md#in-a-cluster). Each
 * change is in this thread's LMDB by the time its promise resolves, so the next read sees it.
 */
export interface WebRecords {
  addInvite(digest: string, invite: InviteRecord): Promise<unknown>;
  /**
   * Takes an invite once: when the invite of `digest` exists and is unexpired at `now` and its
   * account exists, sets the account's password to `password` and ends the account's sessions
   * (docs/dashboard.md#sign-in). The account, or undefined (and nothing changed).
   */
  redeemInvite(digest: string, now: number, password: PasswordRecord): Promise<string | undefined>;
  /** Writes `session` and removes `replaced` (the session it rotates). */
  putSession(digest: string, session: SessionRecord, replaced?: string): Promise<unknown>;
  removeSession(digest: string): Promise<unknown>;
}

/** Every write the dashboard and console make, when they are not this LMDB's (docs/dashboard.md#in-a-cluster). */
export interface DashboardWrites {
  records: WebRecords;
  accounts: AccountChangeWrites;
}

/**
 * A dashboard write that the store it goes to cannot take now (the cluster's NATS is out of
 * reach): the page answers 503 and asks to try again (docs/dashboard.md#in-a-cluster). Known
 * by its name, which survives the trip from the resource thread to an edge.
 */
export class WritesUnavailable extends Error {
  override readonly name = 'WritesUnavailable';
}

/** Whether `error` is a WritesUnavailable, here or from another thread. */
export function isWritesUnavailable(error: unknown): boolean {
  return error instanceof Error && error.name === 'WritesUnavailable';
}

/**
 * Each record is written in one transaction, so every thread and process sees the same sessions
 * and attempts. Reads are always this LMDB's; in a cluster the writes go to the KV buckets
 * through `WebRecords`, and every node replicates them here (docs/dashboard.md#in-a-cluster).
 */
export class WebStore implements WebRecords {
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

  redeemInvite(digest: string, now: number, password: PasswordRecord): Promise<string | undefined> {
    return this.dbs.root.transaction(() => {
      const invite = this.dbs.invites.get(digest);
      if (!invite || invite.expiresAt <= now || !this.dbs.accounts.get(invite.account)) return undefined;
      this.dbs.invites.remove(digest);
      this.dbs.passwords.put(invite.account, password);
      for (const session of this.sessionsOf(invite.account)) this.dbs.sessions.remove(session);
      return invite.account;
    });
  }

  /** The digests of the sessions signed in to `account` (a scan: sweeps keep sessions few). */
  sessionsOf(account: string): string[] {
    return [...this.dbs.sessions.getRange()].filter(({ value }) => value.account === account).map(({ key }) => key);
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

  // What a replica of the cluster's buckets writes (src/seams/webRecords/webReplica.ts); each resolves
  // whether it changed anything.

  replicateInvite(digest: string, invite: InviteRecord | undefined): Promise<boolean> {
    return replicate(this.dbs.invites, digest, invite);
  }

  replicatePassword(account: string, password: PasswordRecord | undefined): Promise<boolean> {
    return replicate(this.dbs.passwords, account, password);
  }

  replicateSession(digest: string, session: SessionRecord | undefined): Promise<boolean> {
    return replicate(this.dbs.sessions, digest, session);
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

  /**
   * Counts a sign-in attempt under every one of `keys` before its password is checked
   * (docs/dashboard.md#rate-limits), in one transaction: LMDB runs write transactions one at a
   * time across threads and processes, so of attempts made at once no more than the rule allows
   * are counted, however many there are. Refused (nothing written) once a key holds `refuseAfter`
   * attempts in its window; a key whose window is over starts a new one at `now`.
   */
  reserveAttempt(keys: readonly string[], now: number, rule: AttemptRule): Promise<AttemptReservation> {
    return this.dbs.root.transaction(() => {
      const current = keys.map((key) => {
        const record = this.dbs.signinAttempts.get(key);
        return record && now - record.since < rule.windowMs ? record : { failures: 0, since: now };
      });
      const worst = current.reduce((most, record) => (record.failures > most.failures ? record : most));
      const windowEnds = worst.since + rule.windowMs;
      if (worst.failures >= rule.refuseAfter) return { reserved: false, earlier: worst.failures, windowEnds, since: [] };
      for (const [index, record] of current.entries())
        this.dbs.signinAttempts.put(keys[index]!, { failures: record.failures + 1, since: record.since });
      return { reserved: true, earlier: worst.failures, windowEnds, since: current.map((record) => record.since) };
    });
  }

  /**
   * Takes back one attempt counted under `key` in the window that began at `since` (a right
   * password's on the address, or one never checked); nothing when that window is over.
   */
  releaseAttempt(key: string, since: number): Promise<void> {
    return this.dbs.root.transaction(() => {
      const record = this.dbs.signinAttempts.get(key);
      if (!record || record.since !== since) return;
      if (record.failures <= 1) this.dbs.signinAttempts.remove(key);
      else this.dbs.signinAttempts.put(key, { failures: record.failures - 1, since });
    });
  }

  clearFailures(key: string): Promise<boolean> {
    return this.dbs.signinAttempts.remove(key);
  }
}

/** The sign-in throttle's window and limit (`webLimits.signin`). */
export interface AttemptRule {
  windowMs: number;
  refuseAfter: number;
}

export interface AttemptReservation {
  /** Whether this attempt was counted; false when a key had reached the limit. */
  reserved: boolean;
  /** Attempts already counted, under the key that had the most, before this one. */
  earlier: number;
  /** When that key's window ends. */
  windowEnds: number;
  /** Where each key's window began, per key, as `releaseAttempt` takes it (empty when not reserved). */
  since: number[];
}

/** Puts `value` under `key`, or removes the key when there is no value; false when it was so already. */
function replicate<V>(db: Database<V, string>, key: string, value: V | undefined): Promise<boolean> {
  return db.transaction(() => {
    const known = db.get(key);
    if (JSON.stringify(known) === JSON.stringify(value)) return false;
    if (value === undefined) db.remove(key);
    else db.put(key, value);
    return true;
  });
}
