// Password hashing on threads of its own (docs/dashboard.md#password-hashing). scrypt holds a
// thread for tens of milliseconds; called asynchronously it runs on libuv's pool of four threads,
// the pool LMDB's commits wait for, so a flood of sign-ins held searches for seconds. Here each hash
// is `scryptSync` inside a dedicated worker thread, where it never touches the libuv pool; at most
// `threads` run at once, at most `queued` wait, and any more are refused (HasherBusy: a 429).
import { Worker } from 'node:worker_threads';

/** One scrypt derivation: the salt in base64, the parameters as stored with a password. */
export interface ScryptJob {
  password: string;
  salt: string;
  cost: number;
  blockSize: number;
  parallelization: number;
  keyLength: number;
}

/** What the dashboard hashes with: the node's hasher, or the same lent to an edge thread. */
export interface PasswordHashing {
  /** The derived key in base64; rejects with HasherBusy when `queued` hashes already wait. */
  derive(job: ScryptJob): Promise<string>;
}

export interface HasherLimits {
  /** Hashes that run at once, each on its own thread. */
  threads: number;
  /** Hashes that may wait for a thread; one more is refused. */
  queued: number;
  /** scrypt's memory bound, in bytes. */
  maxmem: number;
}

/**
 * Every thread is busy and the queue is full: the sign-in is answered 429 and may be tried again
 * in a moment (docs/dashboard.md#password-hashing). Known by its name, which survives the trip
 * from the resource thread to an edge.
 */
export class HasherBusy extends Error {
  override readonly name = 'HasherBusy';
}

export function isHasherBusy(error: unknown): boolean {
  return error instanceof Error && error.name === 'HasherBusy';
}

// The thread's whole program, run as a CommonJS script (`eval`): no module of the project to
// resolve, so it starts the same from the sources under test and from dist/. It lowers its own
// priority to nice 19 first (Linux: its thread id from /proc/thread-self), so that on a busy core
// the threads answering the API are scheduled before it; where that fails it runs as it is.
const threadProgram = `
const { parentPort } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
const { readlinkSync } = require('node:fs');
const { setPriority } = require('node:os');
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 19);
} catch {}
parentPort.on('message', ({ password, salt, keyLength, cost, blockSize, parallelization, maxmem }) => {
  try {
    const key = scryptSync(password, Buffer.from(salt, 'base64'), keyLength, { cost, blockSize, parallelization, maxmem });
    parentPort.postMessage({ key: key.toString('base64') });
  } catch (error) {
    parentPort.postMessage({ failed: error instanceof Error ? error.message : String(error) });
  }
});
`;

interface Task {
  job: ScryptJob;
  resolve(key: string): void;
  reject(error: Error): void;
}

interface HashThread {
  worker: Worker;
  task: Task | undefined;
}

export class PasswordHasher implements PasswordHashing {
  private readonly threads = new Set<HashThread>();
  private readonly idle: HashThread[] = [];
  private readonly waiting: Task[] = [];
  private stopped = false;

  constructor(private readonly limits: HasherLimits) {
    for (let index = 0; index < limits.threads; index++) this.idle.push(this.start());
  }

  derive(job: ScryptJob): Promise<string> {
    return new Promise((resolve, reject) => {
      if (this.stopped) return reject(new Error('the password hasher is stopped'));
      const task = { job, resolve, reject };
      const thread = this.idle.pop();
      if (thread) this.run(thread, task);
      else if (this.waiting.length < this.limits.queued) this.waiting.push(task);
      else reject(new HasherBusy(`${this.limits.threads} password hashes running and ${this.limits.queued} waiting`));
    });
  }

  /** Refuses what waits and what runs, and ends the threads. */
  async close(): Promise<void> {
    this.stopped = true;
    const stopped = () => new Error('the password hasher is stopped');
    for (const task of this.waiting.splice(0)) task.reject(stopped());
    for (const thread of this.threads) thread.task?.reject(stopped());
    await Promise.all([...this.threads].map((thread) => thread.worker.terminate()));
  }

  private start(): HashThread {
    const worker = new Worker(threadProgram, { eval: true });
    const thread: HashThread = { worker, task: undefined };
    this.threads.add(thread);
    // Only a thread at work keeps the process alive.
    worker.unref();
    worker.on('message', (answer: { key: string } | { failed: string }) => {
      const task = thread.task!;
      if ('key' in answer) task.resolve(answer.key);
      else task.reject(new Error(`scrypt failed: ${answer.failed}`));
      this.next(thread);
    });
    worker.on('error', (error) => {
      thread.task?.reject(error);
      thread.task = undefined;
    });
    worker.on('exit', () => {
      this.threads.delete(thread);
      const index = this.idle.indexOf(thread);
      if (index >= 0) this.idle.splice(index, 1);
      // A thread lost (out of memory) is replaced, so the hasher keeps its size.
      if (!this.stopped) this.next(this.start());
    });
    return thread;
  }

  private run(thread: HashThread, task: Task): void {
    thread.task = task;
    thread.worker.ref();
    thread.worker.postMessage({ ...task.job, maxmem: this.limits.maxmem });
  }

  private next(thread: HashThread): void {
    thread.task = undefined;
    const task = this.waiting.shift();
    if (task) {
      this.run(thread, task);
      return;
    }
    thread.worker.unref();
    this.idle.push(thread);
  }
}
