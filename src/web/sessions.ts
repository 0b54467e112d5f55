// Dashboard sessions (docs/dashboard.md#sessions): a random id in a cookie, stored only as its
// digest, with its synchronizer CSRF token; signing in always issues a new id.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { webLimits } from '../config.js';
import type { SessionRecord, WebRecords, WebStore } from '../seams/webRecords/webStore.js';
import { digestSecret, newSecret } from './secrets.js';

export interface Session {
  /** The id the browser holds; only its digest is stored. */
  id: string;
  record: SessionRecord;
}

/**
 * Every form, signed in or not, belongs to a session: a visitor gets one without an account, and
 * signing in replaces it with a new id (never the one the browser came with, so a planted id is
 * worth nothing).
 */
export class Sessions {
  constructor(
    private readonly store: WebStore,
    /** Where sessions are written: `store` itself, or the cluster's (docs/dashboard.md#in-a-cluster). */
    private readonly records: WebRecords,
    private readonly now: () => number,
  ) {}

  /** The unexpired session of `id`, or undefined. */
  find(id: string | undefined): Session | undefined {
    if (id === undefined || id === '') return undefined;
    this.store.refresh();
    const record = this.store.session(digestSecret(id));
    if (!record || record.expiresAt <= this.now()) return undefined;
    return { id, record };
  }

  /** A new session for a visitor who is not signed in. */
  startAnonymous(): Promise<Session> {
    return this.write(null, webLimits.formSessionMs);
  }

  /** Signs `account` in on a new session id, ending `previous` (docs/dashboard.md#sessions). */
  signIn(account: string, previous: Session | undefined): Promise<Session> {
    return this.write(account, webLimits.sessionMs, previous);
  }

  async end(session: Session): Promise<void> {
    await this.records.removeSession(digestSecret(session.id));
  }

  private async write(account: string | null, lifetimeMs: number, previous?: Session): Promise<Session> {
    const now = this.now();
    const id = newSecret();
    const record: SessionRecord = { account, csrf: newSecret(), expiresAt: now + lifetimeMs };
    await this.records.putSession(digestSecret(id), record, previous ? digestSecret(previous.id) : undefined);
    await this.store.sweep(now, webLimits.sweepBatch, randomBytes(2).toString('hex'));
    return { id, record };
  }
}

/** Whether a form's CSRF token is its session's, compared in constant time. */
export function csrfMatches(session: Session, sent: string | undefined): boolean {
  if (sent === undefined) return false;
  const expected = Buffer.from(session.record.csrf);
  const given = Buffer.from(sent);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
