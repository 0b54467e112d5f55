// Whether the data store can be written, as its commits find out (docs/storage.md#a-full-disk):
// refused once, the store is not writable until a commit goes through again, and while it is not,
// a small probe write once a second finds out when room came back.
import { statfs } from 'node:fs/promises';
import type { ProblemReporter } from '../health.js';
import type { MetaDatabase } from './records.js';

/** A commit the store refused (a full disk, in practice): nothing of it was written. */
export class CommitRefused extends Error {
  override readonly name = 'CommitRefused';
  constructor(
    /** Why, in words: 'no space left on its disk (ENOSPC)'. */
    readonly reason: string,
  ) {
    super(`the data store cannot be written: ${reason}`);
  }
}

export interface StorageState {
  writable: boolean;
  /** Since when (ms) commits are refused, while they are. */
  since: number | undefined;
  /** What the last refused commit said, while they are. */
  reason: string | undefined;
}

const writable: StorageState = { writable: true, since: undefined, reason: undefined };

export class StorageSpace {
  private state: StorageState = writable;
  private readonly listeners: Array<(state: StorageState) => void> = [];
  private probeTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private refusals = 0;
  /** True while the probe's own write is being made: the one write let through while commits are refused. */
  probing = false;

  constructor(
    private readonly probe: StorageProbe,
    private readonly probeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get current(): StorageState {
    return { ...this.state };
  }

  /** `listener` hears each change: commits refused, and writable again. */
  onChanged(listener: (state: StorageState) => void): void {
    this.listeners.push(listener);
  }

  /** Refusals so far: a commit is news of room only if it began after the last one. */
  get refusalCount(): number {
    return this.refusals;
  }

  /**
   * A commit went through: the store has room again, if it began after the last refusal (a
   * commit begun before, and small enough to fit in freed pages, proves little).
   */
  wrote(begunAfter: number): void {
    if (this.state.writable || begunAfter !== this.refusals) return;
    this.state = writable;
    this.stopProbing();
    this.changed();
  }

  /** A commit was refused. */
  refused({ reason }: CommitRefused): void {
    this.refusals++;
    if (!this.state.writable) {
      this.state = { ...this.state, reason };
      return;
    }
    this.state = { writable: false, since: this.now(), reason };
    this.startProbing();
    this.changed();
  }

  /** Stops probing for good: the environment is closing. */
  close(): void {
    this.closed = true;
    this.stopProbing();
  }

  private startProbing(): void {
    if (this.closed || this.probeTimer) return;
    // The probe is a guarded write: its success or refusal is news like any commit's.
    this.probeTimer = setInterval(() => void this.probeOnce(), this.probeMs);
    // A store that cannot be written must not keep a process alive that has nothing else to do.
    this.probeTimer.unref();
  }

  private async probeOnce(): Promise<void> {
    if (!(await this.probe.room().catch(() => false))) return;
    this.probing = true;
    let written: Promise<unknown>;
    try {
      written = this.probe.write();
    } finally {
      this.probing = false;
    }
    await written.catch(() => undefined);
  }

  private stopProbing(): void {
    clearInterval(this.probeTimer);
    this.probeTimer = undefined;
  }

  private changed(): void {
    for (const listener of this.listeners) listener(this.current);
  }
}

/** How a store that refuses commits looks for room again. */
export interface StorageProbe {
  /** Whether there may be room: a write is tried only then. */
  room(): Promise<boolean>;
  /** A small write, refused as any commit would be. */
  write(): Promise<unknown>;
}

/**
 * The probe: when the data directory's file system shows `minFreeBytes` free (statfs), one small
 * value in `meta`, rewritten. Without room nothing is tried, so a full disk costs no write, and no
 * line of LMDB's on stderr, a second.
 */
export function storageProbe(dataDir: string, meta: MetaDatabase, minFreeBytes: number, now: () => number = Date.now): StorageProbe {
  return {
    room: async () => {
      const { bavail, bsize } = await statfs(dataDir);
      return bavail * bsize >= minFreeBytes;
    },
    write: () => meta.put('storageProbe', now()),
  };
}

const reported = new WeakSet<StorageSpace>();

/** The readiness component a store that refuses commits is reported under. */
export const storageComponent = 'storage';

/**
 * Reports the store's refusals to readiness while they last (docs/storage.md#a-full-disk): every
 * thread's own store, to the server's one health, which every edge answers /readyz from.
 */
export function reportRefusals(space: StorageSpace, problems: ProblemReporter): void {
  // Once per store: a server without edge threads reports its one store as the node and as the edge.
  if (reported.has(space)) return;
  reported.add(space);
  space.onChanged(({ writable, since, reason }) => {
    if (writable) problems.clear(storageComponent);
    else
      problems.report(
        storageComponent,
        `the data store cannot be written since ${new Date(since!).toISOString()}: ${reason}; searches are answered while their counts can be, writes are refused until room is freed`,
      );
  });
}
