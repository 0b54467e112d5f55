// The dashboard's invites, passwords and sessions in a cluster (docs/dashboard.md#in-a-cluster): three
// NATS KV buckets, the cluster's one copy, which every node follows into its LMDB (webReplica.ts).
import { jetstream } from '@nats-io/jetstream';
import { Kvm, type KV, type KvEntry } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { clusterDefaults, webLimits } from '../../config.js';
import type { InviteRecord, PasswordRecord, SessionRecord } from './webStore.js';
import { parsed } from '../../cluster/clusterAccounts.js';
import { bucketKeys } from '../../cluster/bucketKeys.js';

export const passwordsBucket = 'DATAPOINTS_WEB_PASSWORDS';
export const invitesBucket = 'DATAPOINTS_WEB_INVITES';
export const sessionsBucket = 'DATAPOINTS_WEB_SESSIONS';

export class ClusterWeb {
  /**
   * Creates the buckets, or opens them as another node or command created them. They expire
   * invites and sessions by age too (an invite after its lifetime, a session after the longest
   * one), besides the expiry every read checks.
   */
  static async open(connection: NatsConnection): Promise<ClusterWeb> {
    const kvm = new Kvm(jetstream(connection, { timeout: clusterDefaults.requestTimeoutMs }));
    const [passwords, invites, sessions] = await Promise.all([
      kvm.create(passwordsBucket, { history: 1, replicas: 1 }),
      kvm.create(invitesBucket, { history: 1, replicas: 1, ttl: webLimits.inviteMs }),
      kvm.create(sessionsBucket, { history: 1, replicas: 1, ttl: Math.max(webLimits.sessionMs, webLimits.formSessionMs) }),
    ]);
    return new ClusterWeb(passwords, invites, sessions);
  }

  private constructor(
    /** Key: the account name in base64url (clusterAccounts.ts, accountKey); value: PasswordRecord as JSON. */
    readonly passwordEntries: KV,
    /** Key: the invite's digest (hex); value: InviteRecord as JSON. */
    readonly inviteEntries: KV,
    /** Key: the session's digest (hex); value: SessionRecord as JSON. */
    readonly sessionEntries: KV,
  ) {}

  /** Resolves the invite's revision. */
  addInvite(digest: string, invite: InviteRecord): Promise<number> {
    return this.inviteEntries.put(digest, JSON.stringify(invite));
  }

  /**
   * Removes every record of `account`: its password, its sessions and its invites, so that a later
   * account of the same name inherits none (part of deleting an account with `--nats`).
   */
  async forget(accountKey: string, account: string): Promise<void> {
    await this.passwordEntries.delete(accountKey);
    for (const [bucket, read] of [
      [this.sessionEntries, readSession],
      [this.inviteEntries, readInvite],
    ] as const) {
      for (const key of await bucketKeys(bucket)) {
        if (read(await bucket.get(key))?.account === account) await bucket.delete(key);
      }
    }
  }
}

/** Invite and session keys are SHA-256 digests in hex (src/web/secrets.ts): valid KV keys as they are. */
export const digestKey = /^[0-9a-f]{64}$/;

// What a KV entry must hold to be taken in: written by other processes, so checked, not trusted.
const whole = Type.Integer({ minimum: 0 });
const passwordEntry = Compile(
  Type.Object({
    salt: Type.String(),
    hash: Type.String(),
    cost: whole,
    blockSize: whole,
    parallelization: whole,
    keyLength: whole,
    setAt: Type.String(),
  }),
);
const inviteEntry = Compile(Type.Object({ account: Type.String(), expiresAt: whole }));
const sessionEntry = Compile(Type.Object({ account: Type.Union([Type.String(), Type.Null()]), csrf: Type.String(), expiresAt: whole }));

/** The password an entry holds; undefined for a deleted entry or one that is not a password. */
export function readPassword(entry: KvEntry | null): PasswordRecord | undefined {
  const value = parsed(entry);
  if (!passwordEntry.Check(value)) return undefined;
  const { salt, hash, cost, blockSize, parallelization, keyLength, setAt } = value;
  return { salt, hash, cost, blockSize, parallelization, keyLength, setAt };
}

export function readInvite(entry: KvEntry | null): InviteRecord | undefined {
  const value = parsed(entry);
  return inviteEntry.Check(value) ? { account: value.account, expiresAt: value.expiresAt } : undefined;
}

export function readSession(entry: KvEntry | null): SessionRecord | undefined {
  const value = parsed(entry);
  return sessionEntry.Check(value) ? { account: value.account, csrf: value.csrf, expiresAt: value.expiresAt } : undefined;
}
