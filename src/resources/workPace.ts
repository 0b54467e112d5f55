// How resource work (machine steps, with their LMDB writes) shares the event loop and the disk
// with searches (docs/architecture.md, "Pacing background work"). Work runs in slices: each turn
// of the loop starts queued pieces until `sliceMs` of that turn is used, then yields, so sockets
// are read again before the next slice. And at most `maxRunning` pieces are unfinished at once:
// a search's usage count is committed in the same LMDB write queue as resource steps, so a burst
// of hundreds of steps would make every answer wait behind their commit. Nothing tells the pace
// that searches arrive: a loop with nothing else to do comes straight back for the next slice.
export interface PaceLimits {
  sliceMs: number;
  maxRunning: number;
}

export class WorkPace {
  private readonly queued: Array<() => void> = [];
  private head = 0;
  private running = 0;
  private turnScheduled = false;

  constructor(
    private readonly limits: PaceLimits,
    private readonly clock: () => number = () => performance.now(),
    private readonly nextTurn: (run: () => void) => void = setImmediate,
  ) {}

  /** Runs `work` in a later turn, inside that turn's slice; settles as the work does. */
  run(work: () => Promise<void> | void): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queued.push(() => {
        this.running++;
        let result: Promise<void>;
        try {
          result = Promise.resolve(work());
        } catch (error) {
          result = Promise.reject(error);
        }
        result.then(resolve, reject);
        result.then(this.finished, this.finished);
      });
      this.scheduleTurn();
    });
  }

  /** Pieces waiting for a slice. */
  get waiting(): number {
    return this.queued.length - this.head;
  }

  private readonly finished = (): void => {
    this.running--;
    if (this.waiting > 0) this.scheduleTurn();
  };

  private scheduleTurn(): void {
    if (this.turnScheduled || this.running >= this.limits.maxRunning) return;
    this.turnScheduled = true;
    this.nextTurn(() => this.runSlice());
  }

  private runSlice(): void {
    this.turnScheduled = false;
    const started = this.clock();
    // At least one piece a turn, however long pieces take.
    do {
      this.queued[this.head++]!();
    } while (this.head < this.queued.length && this.running < this.limits.maxRunning && this.clock() - started < this.limits.sliceMs);
    if (this.head === this.queued.length) {
      this.queued.length = 0;
      this.head = 0;
      return;
    }
    if (this.head > 1_024) {
      this.queued.splice(0, this.head);
      this.head = 0;
    }
    this.scheduleTurn();
  }
}
