// The newest version of accounts and tokens any thread of this server has seen, so that once one edge
// refuses a revoked token no edge accepts it again (docs/guarantees.md#threads).
/**
 * Each edge thread polls the data directory on its own timer; the first to notice a change (a
 * revoked token) posts the new version here, and every other edge reads it before its next
 * authentication and refreshes at once.
 */
export class AuthVersionBoard {
  private readonly newest: Int32Array;

  /** `buffer`: 4 bytes shared by every thread of the server (a private one serves one thread). */
  constructor(buffer: SharedArrayBuffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)) {
    this.newest = new Int32Array(buffer);
  }

  get buffer(): SharedArrayBuffer {
    return this.newest.buffer as SharedArrayBuffer;
  }

  read(): number {
    return Atomics.load(this.newest, 0);
  }

  /** Records `version` unless a newer one is already there (versions only grow). */
  publish(version: number): void {
    let seen = Atomics.load(this.newest, 0);
    while (version > seen) {
      const previous = Atomics.compareExchange(this.newest, 0, seen, version);
      if (previous === seen) return;
      seen = previous;
    }
  }
}
