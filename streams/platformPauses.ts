// Where an upstream's rate-limit pauses are told and heard, so that every node sharing its limit
// pauses it (docs/design/cluster.md#upstream-budgets-cluster-wide). An upstream is a
// platform, or a federated platform's server (streams/upstreamKey.ts).
import { concat, defer, from, Subject, type Observable } from 'rxjs';
import type { UpstreamKey } from './upstreamKey.js';

/** "Call `upstream` no more before `until`" (epoch ms). */
export interface PlatformPause {
  upstream: UpstreamKey;
  until: number;
}

/**
 * A seam: InProcessPlatformPauses is a node alone; src/seams/platformPauses/natsPlatformPauses.ts
 * shares one among the nodes of a cluster. Every implementation passes
 * src/seams/platformPauses/platformPauses.contract.ts.
 */
export interface PlatformPauses {
  /**
   * Pauses `upstream` until `until` everywhere the seam reaches. A pause that ends no later than
   * the one in force, or is already over, changes nothing.
   */
  announce(upstream: UpstreamKey, until: number): void;
  /**
   * The pauses in force when subscribed (one per upstream, the latest `until`), then each pause
   * that ends later than the one heard before it, whoever announced it.
   */
  readonly paused: Observable<PlatformPause>;
}

/** The board of a node alone: it hears only itself. */
export class InProcessPlatformPauses implements PlatformPauses {
  private readonly latest = new Map<UpstreamKey, number>();
  private readonly heard = new Subject<PlatformPause>();

  constructor(private readonly now: () => number) {}

  readonly paused: Observable<PlatformPause> = defer(() => {
    const now = this.now();
    const inForce = [...this.latest].filter(([, until]) => until > now).map(([upstream, until]) => ({ upstream, until }));
    return concat(from(inForce), this.heard);
  });

  announce(upstream: UpstreamKey, until: number): void {
    if (until <= Math.max(this.now(), this.latest.get(upstream) ?? 0)) return;
    this.latest.set(upstream, until);
    this.heard.next({ upstream, until });
  }
}
