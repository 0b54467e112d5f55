// How much resource work (machine steps, with their LMDB writes) starts per turn of the event
// loop that also answers searches. Measured on one core with 200k due github refreshes:
// 64 a turn collects ~3,300/s alone, but a concurrent warm search then gets ~2,300 req/s;
// 1-4 a turn leave that search 7,000-9,000 req/s and still collect 400-500/s, far above the
// ~50/s that keeping a million resources fresh every 6 h needs. So the pace follows searches.
import { limits } from '../config.js';

export interface WorkPerTurn {
  idle: number;
  searching: number;
  quietAfterMs: number;
}

export class WorkPace {
  private lastSearchAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly now: () => number,
    private readonly pace: WorkPerTurn = limits.workPerTurn,
  ) {}

  /** A search arrived at `at`. */
  searched(at: number): void {
    this.lastSearchAt = at;
  }

  perTurn(): number {
    return this.now() - this.lastSearchAt < this.pace.quietAfterMs ? this.pace.searching : this.pace.idle;
  }
}
