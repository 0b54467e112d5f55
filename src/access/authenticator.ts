// Resolves a bearer token to its account. Lookups are cached by digest; the cache is dropped
// whenever the CLI changes accounts or tokens, which a poll of `authVersion` notices, or another
// thread's poll posted on the shared board (docs/guarantees.md#threads). In a cluster, a token the
// node does not know is looked for in the cluster before it is refused
// (docs/design/cluster.md#a-token-new-to-a-node).
import { limits } from '../config.js';
import { AuthVersionBoard } from './authVersionBoard.js';
import type { AccountRecord, AccountStore, AccountsCatchUp, TokenRecord } from '../store/accountStore.js';
import { CommitRefused } from '../store/storageSpace.js';
import { digestToken, digestsEqual, parseAuthorization } from '../auth/tokens.js';
import type { ProblemReporter } from '../health.js';
import type { Logger } from '../log.js';

export type Authentication =
  | { kind: 'missing' }
  | { kind: 'invalid' }
  | { kind: 'authenticated'; account: AccountRecord; token: TokenRecord };

/** The Health component of failed last-used writes. */
export const tokenBookkeeping = 'token bookkeeping';

export class Authenticator {
  private readonly byDigest = new Map<string, Extract<Authentication, { kind: 'authenticated' }>>();
  private readonly lastTouched = new Map<string, number>();
  private touchFailing = false;
  private version: number;
  private readonly poll: NodeJS.Timeout;

  constructor(
    private readonly accounts: AccountStore,
    private readonly log: Pick<Logger, 'warn'>,
    private readonly board = new AuthVersionBoard(),
    private readonly problems?: ProblemReporter,
    /** In a cluster: how this node holds what the cluster holds before it refuses a token. */
    private readonly cluster?: AccountsCatchUp,
  ) {
    this.version = accounts.authVersion();
    board.publish(this.version);
    this.poll = setInterval(() => this.refresh(), limits.authRefreshMs);
    this.poll.unref();
  }

  authenticate(authorization: string, now: number): Authentication {
    const credentials = parseAuthorization(authorization);
    if (credentials.kind === 'none') return { kind: 'missing' };
    return this.authenticateDigest(digestToken(credentials.secret), now);
  }

  /**
   * The token whose digest is `digest`: for credentials other than the header (a stream ticket),
   * and to see that an open stream's token is still valid (docs/push.md#authentication).
   */
  authenticateDigest(digest: string, now: number): Exclude<Authentication, { kind: 'missing' }> {
    if (this.board.read() > this.version) this.refresh();
    const cached = this.byDigest.get(digest);
    if (cached) {
      this.touch(cached.token, now);
      return cached;
    }
    const result = this.lookup(digest);
    // Only valid tokens are cached: caching refusals would let random tokens grow memory.
    if (result.kind === 'authenticated') {
      this.byDigest.set(digest, result);
      this.touch(result.token, now);
    }
    return result;
  }

  /**
   * Whether a refusal of `authenticate` may not be final: in a cluster, a token made a moment ago
   * may not have reached this node's replica yet. The caller then asks `authenticateCaughtUp`.
   */
  mayCatchUp(authentication: Authentication): boolean {
    return authentication.kind === 'invalid' && this.cluster !== undefined;
  }

  /**
   * `authenticate` once this node holds every account and token the cluster held when it was
   * called, so a token made on the cluster before the request came is known. When that cannot
   * be known (NATS out of reach, or not within the cluster's request timeout), the answer is the
   * one from what this node holds.
   */
  authenticateCaughtUp(authorization: string, now: number): Promise<Authentication> {
    const credentials = parseAuthorization(authorization);
    if (credentials.kind === 'none') return Promise.resolve({ kind: 'missing' });
    return this.authenticateDigestCaughtUp(digestToken(credentials.secret), now);
  }

  /** `authenticateDigest`, once caught up, as `authenticateCaughtUp`. */
  async authenticateDigestCaughtUp(digest: string, now: number): Promise<Exclude<Authentication, { kind: 'missing' }>> {
    await this.cluster?.catchUp().catch(() => undefined);
    this.refresh();
    return this.authenticateDigest(digest, now);
  }

  close(): void {
    clearInterval(this.poll);
  }

  /** Drops every cached answer if accounts or tokens changed since the last look. */
  refresh(): void {
    this.accounts.refresh();
    this.notice(this.accounts.authVersion());
  }

  /**
   * Takes in a version read from the store, and shares it: an edge that looks a token up may
   * read newer data than the polls of the others have, and must not refuse a revoked token
   * while another edge still accepts it from its cache.
   */
  private notice(version: number): void {
    this.board.publish(version);
    if (version !== this.version) {
      this.version = version;
      this.byDigest.clear();
    }
  }

  private lookup(digest: string): Exclude<Authentication, { kind: 'missing' }> {
    this.notice(this.accounts.authVersion());
    const token = this.accounts.tokenByDigest(digest);
    if (!token || token.revokedAt !== null || !digestsEqual(token.digest, digest)) return { kind: 'invalid' };
    const account = this.accounts.account(token.account);
    return account ? { kind: 'authenticated', account, token } : { kind: 'invalid' };
  }

  private touch(token: TokenRecord, now: number): void {
    const last = this.lastTouched.get(token.id) ?? 0;
    if (now - last < limits.tokenTouchIntervalMs) return;
    this.lastTouched.set(token.id, now);
    // Bookkeeping only: a write that fails (a full disk) must not fail or end anything else,
    // but readiness shows it until a later write succeeds (docs/architecture.md#when-background-work-fails).
    this.accounts.touchToken(token.id, new Date(now).toISOString()).then(
      () => {
        if (!this.touchFailing) return;
        this.touchFailing = false;
        this.problems?.clear(tokenBookkeeping);
      },
      (error: unknown) => {
        // A full store is said once by the store (docs/storage.md#a-full-disk); the time is written at a later use.
        if (error instanceof CommitRefused) return;
        this.log.warn({ err: error, token: token.id }, 'token last-used time not written');
        this.touchFailing = true;
        this.problems?.report(
          tokenBookkeeping,
          `token last-used time not written: ${error instanceof Error ? error.message : String(error)}`,
        );
      },
    );
  }
}
