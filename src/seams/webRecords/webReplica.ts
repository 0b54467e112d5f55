// The dashboard's records in a cluster, as one node sees them (docs/dashboard.md#in-a-cluster): the
// KV buckets followed into its LMDB, each write resolved once its own replica has applied it.
import type { KV, KvWatchEntry } from '@nats-io/kv';
import type { WebRecords, InviteRecord, PasswordRecord, SessionRecord, WebStore } from './webStore.js';
import { type FollowedBucket, followBucket, type ReplicaOptions, unlessUnavailable } from '../replicas/bucketReplica.js';
import { accountKey, isRevisionRefusal } from '../../cluster/clusterAccounts.js';
import { type ClusterWeb, digestKey, readInvite, readPassword, readSession } from './clusterWeb.js';

export class WebReplica implements WebRecords {
  /** Starts the three watches and resolves once the node holds what the cluster held. */
  static async start(
    cluster: ClusterWeb,
    store: WebStore,
    accountExists: (name: string) => boolean,
    options: ReplicaOptions,
  ): Promise<WebReplica> {
    const follow = (bucket: KV, apply: (entry: KvWatchEntry) => Promise<boolean>, what: string) =>
      followBucket(bucket, apply, options, what);
    const [passwords, invites, sessions] = await Promise.all([
      follow(
        cluster.passwordEntries,
        (entry) => store.replicatePassword(Buffer.from(entry.key, 'base64url').toString(), taken(entry, readPassword, options)),
        'password',
      ),
      follow(cluster.inviteEntries, (entry) => store.replicateInvite(entry.key, taken(entry, readInvite, options)), 'invite'),
      follow(cluster.sessionEntries, (entry) => store.replicateSession(entry.key, taken(entry, readSession, options)), 'session'),
    ]);
    return new WebReplica(cluster, store, accountExists, { passwords, invites, sessions });
  }

  private constructor(
    private readonly cluster: ClusterWeb,
    private readonly store: WebStore,
    private readonly accountExists: (name: string) => boolean,
    private readonly followed: Record<'passwords' | 'invites' | 'sessions', FollowedBucket>,
  ) {}

  stop(): void {
    for (const bucket of Object.values(this.followed)) bucket.stop();
  }

  addInvite(digest: string, invite: InviteRecord): Promise<void> {
    return unlessUnavailable(async () => {
      await this.followed.invites.reached(await this.cluster.addInvite(digest, invite));
    });
  }

  redeemInvite(digest: string, now: number, password: PasswordRecord): Promise<string | undefined> {
    return unlessUnavailable(async () => {
      if (!digestKey.test(digest)) return undefined;
      const { inviteEntries, passwordEntries, sessionEntries } = this.cluster;
      const entry = await inviteEntries.get(digest);
      const invite = readInvite(entry);
      if (!entry || !invite || invite.expiresAt <= now || !this.accountExists(invite.account)) return undefined;
      try {
        // Taken once across the cluster: the delete is refused when another node took it first.
        await inviteEntries.delete(digest, { previousSeq: entry.revision });
      } catch (error) {
        if (isRevisionRefusal(error)) return undefined;
        throw error;
      }
      const set = await passwordEntries.put(accountKey(invite.account), JSON.stringify(password));
      this.store.refresh();
      for (const session of this.store.sessionsOf(invite.account)) await sessionEntries.delete(session);
      await Promise.all([this.followed.passwords.reached(set), this.followed.invites.reachedNow(), this.followed.sessions.reachedNow()]);
      return invite.account;
    });
  }

  putSession(digest: string, session: SessionRecord, replaced?: string): Promise<void> {
    return unlessUnavailable(async () => {
      const { sessionEntries } = this.cluster;
      if (replaced !== undefined && digestKey.test(replaced)) await sessionEntries.delete(replaced);
      await this.followed.sessions.reached(await sessionEntries.put(digest, JSON.stringify(session)));
    });
  }

  removeSession(digest: string): Promise<void> {
    return unlessUnavailable(async () => {
      if (!digestKey.test(digest)) return;
      await this.cluster.sessionEntries.delete(digest);
      await this.followed.sessions.reachedNow();
    });
  }
}

/** The record of a PUT entry, undefined for a delete; an entry that is no record is logged and taken as gone. */
function taken<T>(entry: KvWatchEntry, read: (entry: KvWatchEntry) => T | undefined, options: ReplicaOptions): T | undefined {
  if (entry.operation !== 'PUT') return undefined;
  const record = read(entry);
  if (record === undefined) options.log.warn({ key: entry.key }, 'cluster dashboard entry is not a record; taken as removed');
  return record;
}
