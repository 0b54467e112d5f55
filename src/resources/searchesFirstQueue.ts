// How resource work (machine steps, with their LMDB writes) shares the event loop, the disk and
// the core with searches (docs/architecture.md#pacing-background-work, docs/architecture.md#searches-first).
import { performance } from 'node:perf_hooks';

export interface PaceLimits {
  /** Each turn of the loop starts queued pieces until this much of it is used, then yields to the sockets. */
  sliceMs: number;
  /**
   * Pieces unfinished at once while the edges are busy: a search's usage count is committed in the
   * same LMDB write queue as resource steps, so hundreds of steps at once would make every answer
   * wait behind their commit.
   */
  maxRunning: number;
  /**
   * Pieces unfinished at once while the edges are idle (none: `maxRunning`); between the two, the
   * room shrinks with their load. A step waits for its durable commit, so this room, not the
   * CPU, bounds how fast a backlog drains while nobody searches.
   */
  idleMaxRunning?: number;
  /** The share of the time resource work keeps while searches keep the edges fully busy. */
  minShare?: number;
}

export interface PaceClock {
  clock?: () => number;
  /** Runs `run` in the next turn of the loop. */
  nextTurn?: (run: () => void) => void;
  /** Runs `run` after `ms`. */
  later?: (run: () => void, ms: number) => void;
  /** How busy the searches' threads are, 0 to 1 (src/threads/edgeLoad.ts); none: never. */
  edgeLoad?: () => number;
  /**
   * Milliseconds this thread's loop has been busy so far (its event-loop utilization's
   * `active`): the work a slice sets off outside it (commits' callbacks, collections) counts
   * against the share too.
   */
  busyMs?: () => number;
}

/** Pauses shorter than this are not worth a timer: the next slice runs in the next turn. */
const shortestPauseMs = 0.5;
/** The longest pause: busy time counted from long ago (start-up, a quiet hour) must not stall the work. */
const longestPauseMs = 100;

/**
 * The share of the time resource work takes while the edges are `busy` (0 to 1): what they
 * leave of the core, never less than `minShare`, so that a backlog still moves.
 */
export const workShare = (busy: number, minShare: number): number => Math.min(1, Math.max(minShare, 1 - busy));

/** The pause after a slice of `usedMs` for the work to take `share` of the time; 0: none. */
export function pauseAfter(usedMs: number, share: number): number {
  if (share >= 1) return 0;
  const pause = Math.min(longestPauseMs, (usedMs * (1 - share)) / share);
  return pause < shortestPauseMs ? 0 : pause;
}

/** Pieces unfinished at once while the edges are `busy` (0 to 1): from the idle room down to the busy one. */
export const runningRoom = (busy: number, limits: PaceLimits): number => {
  const idle = limits.idleMaxRunning ?? limits.maxRunning;
  return Math.max(limits.maxRunning, Math.round(idle - (idle - limits.maxRunning) * Math.min(1, Math.max(0, busy))));
};

/** Pieces in arrival order; taken from the head without shifting the array each time. */
class PieceQueue {
  private readonly pieces: Array<() => void> = [];
  private head = 0;

  get length(): number {
    return this.pieces.length - this.head;
  }

  push(piece: () => void): void {
    this.pieces.push(piece);
  }

  take(): () => void {
    const piece = this.pieces[this.head++]!;
    if (this.head === this.pieces.length) {
      this.pieces.length = 0;
      this.head = 0;
    } else if (this.head > 1_024) {
      this.pieces.splice(0, this.head);
      this.head = 0;
    }
    return piece;
  }
}

/** Which queue a piece waits in: `finishing` pieces run before every `starting` one. */
export type WorkKind = 'finishing' | 'starting';

/**
 * Runs work in slices. While the edge threads are busy a slice is followed by a pause that
 * leaves them the core; while they are idle the next slice comes straight back and catches up.
 * Work that finishes what was started (a collection's outcome, a search's first step) runs
 * before work that starts more (a due refresh): under the searches' share, starting work first
 * would lease collections whose outcomes then wait behind the next due steps.
 */
export class SearchesFirstQueue {
  private readonly finishing = new PieceQueue();
  private readonly starting = new PieceQueue();
  private running = 0;
  private turnScheduled = false;
  /** No slice starts before this time: the pause the last slice owes the searches. */
  private resumeAt = Number.NEGATIVE_INFINITY;

  private readonly clock: () => number;
  private readonly nextTurn: (run: () => void) => void;
  private readonly later: (run: () => void, ms: number) => void;
  private readonly edgeLoad: () => number;
  private readonly busyMs: () => number;
  /** busyMs() when the last slice ended. */
  private busyAtLastSlice = 0;
  /** Pieces that may be unfinished at once, set by the edges' load at the end of each slice. */
  private room: number;

  constructor(
    private readonly limits: PaceLimits,
    pace: PaceClock = {},
  ) {
    this.clock = pace.clock ?? (() => performance.now());
    this.nextTurn = pace.nextTurn ?? setImmediate;
    this.later = pace.later ?? ((run, ms) => setTimeout(run, ms));
    this.edgeLoad = pace.edgeLoad ?? (() => 0);
    this.busyMs = pace.busyMs ?? (() => performance.eventLoopUtilization().active);
    this.busyAtLastSlice = this.busyMs();
    this.room = runningRoom(this.edgeLoad(), limits);
  }

  /** Runs `work` in a later turn, inside that turn's slice; settles as the work does. */
  run(work: () => Promise<void> | void, kind: WorkKind = 'finishing'): Promise<void> {
    return new Promise((resolve, reject) => {
      (kind === 'finishing' ? this.finishing : this.starting).push(() => {
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
    return this.finishing.length + this.starting.length;
  }

  private readonly finished = (): void => {
    this.running--;
    if (this.waiting > 0) this.scheduleTurn();
  };

  private scheduleTurn(): void {
    if (this.turnScheduled || this.running >= this.room) return;
    this.turnScheduled = true;
    const pauseMs = this.resumeAt - this.clock();
    if (pauseMs >= shortestPauseMs) this.later(this.runSlice, pauseMs);
    else this.nextTurn(this.runSlice);
  }

  private readonly runSlice = (): void => {
    // turnScheduled stays set through the slice: work queued by its pieces waits for the pause.
    const started = this.clock();
    // At least one piece a turn, however long pieces take.
    do {
      (this.finishing.length > 0 ? this.finishing : this.starting).take()();
    } while (this.waiting > 0 && this.running < this.room && this.clock() - started < this.limits.sliceMs);
    // The pause answers for everything the thread did since the last slice ended, this slice included.
    const busy = this.busyMs();
    const active = Math.max(busy - this.busyAtLastSlice, this.clock() - started);
    this.busyAtLastSlice = busy;
    const edgeLoad = this.edgeLoad();
    this.room = runningRoom(edgeLoad, this.limits);
    this.resumeAt = this.clock() + pauseAfter(active, workShare(edgeLoad, this.limits.minShare ?? 1));
    this.turnScheduled = false;
    if (this.waiting > 0) this.scheduleTurn();
  };
}
