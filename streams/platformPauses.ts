// Where a platform's rate-limit pauses are told and heard, so that every node sharing the platform's
// limit pauses it (docs/design/cluster.md#upstream-budgets-cluster-wide).
import { concat, defer, from, Subject, type Observable } from 'rxjs';
import type { PlatformCode } from '../src/model.js';

/** "Call `platform` no more before `until`" (epoch ms). */
export interface PlatformPause {
  platform: PlatformCode;
  until: number;
}

/**
 * A seam: InProcessPlatformPauses is a node alone; src/seams/platformPauses/natsPlatformPauses.ts
 * shares one among the nodes of a cluster. Every implementation passes
 * src/seams/platformPauses/platformPauses.contract.ts.
 */
export interface PlatformPauses {
  /**
   * Pauses `platform` until `until` everywhere the seam reaches. A pause that ends no later than
   * the one in force, or is already over, changes nothing.
   */
  announce(platform: PlatformCode, until: number): void;
  /**
   * The pauses in force when subscribed (one per platform, the latest `until`), then each pause
   * that ends later than the one heard before it, whoever announced it.
   */
  readonly paused: Observable<PlatformPause>;
}

/** The board of a node alone: it hears only itself. */
export class InProcessPlatformPauses implements PlatformPauses {
  private readonly latest = new Map<PlatformCode, number>();
  private readonly heard = new Subject<PlatformPause>();

  constructor(private readonly now: () => number) {}

  readonly paused: Observable<PlatformPause> = defer(() => {
    const now = this.now();
    const inForce = [...this.latest].filter(([, until]) => until > now).map(([platform, until]) => ({ platform, until }));
    return concat(from(inForce), this.heard);
  });

  announce(platform: PlatformCode, until: number): void {
    if (until <= Math.max(this.now(), this.latest.get(platform) ?? 0)) return;
    this.latest.set(platform, until);
    this.heard.next({ platform, until });
  }
}
