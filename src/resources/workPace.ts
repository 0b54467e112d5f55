// How resource work (machine steps, with their LMDB writes) shares the event loop that also
// answers searches (docs/architecture.md, "Pacing background work"). Work runs in slices: each
// turn of the loop starts queued pieces until `sliceMs` of that turn is used, then yields, so
// sockets are read again before the next slice. Nothing tells the pace that searches arrive: a
// loop with nothing else to do comes straight back for the next slice, and a busy one makes
// each slice wait behind its other callbacks.
export class WorkPace {
  private readonly queued: Array<() => void> = [];
  private head = 0;
  private turnScheduled = false;

  constructor(
    private readonly sliceMs: number,
    private readonly clock: () => number = () => performance.now(),
    private readonly nextTurn: (run: () => void) => void = setImmediate,
  ) {}

  /** Runs `work` in a later turn, inside that turn's slice; settles as the work does. */
  run(work: () => Promise<void> | void): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queued.push(() => {
        try {
          resolve(work());
        } catch (error) {
          reject(error);
        }
      });
      this.scheduleTurn();
    });
  }

  /** Pieces waiting for a slice. */
  get waiting(): number {
    return this.queued.length - this.head;
  }

  private scheduleTurn(): void {
    if (this.turnScheduled) return;
    this.turnScheduled = true;
    this.nextTurn(() => this.runSlice());
  }

  private runSlice(): void {
    this.turnScheduled = false;
    const started = this.clock();
    // At least one piece a turn, however long pieces take.
    do {
      this.queued[this.head++]!();
    } while (this.head < this.queued.length && this.clock() - started < this.sliceMs);
    if (this.head === this.queued.length) {
      this.queued.length = 0;
      this.head = 0;
    } else {
      if (this.head > 1_024) {
        this.queued.splice(0, this.head);
        this.head = 0;
      }
      this.scheduleTurn();
    }
  }
}
