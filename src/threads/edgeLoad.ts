// How busy the edge threads are, which the resource thread paces its work by
// (docs/architecture.md#searches-first): one slot per edge in a shared buffer.
import { readFileSync } from 'node:fs';

/** Per slot, the share in parts per million (Int32: whole numbers, written and read atomically). */
const scale = 1_000_000;

export class EdgeLoadBoard {
  readonly buffer: SharedArrayBuffer;
  private readonly slots: Int32Array;

  /** A new board of `edges` slots, or the view of one made on another thread. */
  constructor(edgesOrBuffer: number | SharedArrayBuffer) {
    this.buffer = typeof edgesOrBuffer === 'number' ? new SharedArrayBuffer(edgesOrBuffer * Int32Array.BYTES_PER_ELEMENT) : edgesOrBuffer;
    this.slots = new Int32Array(this.buffer);
  }

  /** The busiest edge's last reading, 0 (sleeping for sockets all the time) to 1 (never). */
  busiest(): number {
    let most = 0;
    for (let index = 0; index < this.slots.length; index++) most = Math.max(most, Atomics.load(this.slots, index));
    return most / scale;
  }

  write(edge: number, utilization: number): void {
    Atomics.store(this.slots, edge, Math.round(Math.min(1, Math.max(0, utilization)) * scale));
  }
}

/**
 * Nanoseconds the calling thread has run and waited to run so far (searches waiting keep an edge
 * wanting the core); undefined where Linux's schedstat is missing. Not the event-loop
 * utilization: uWebSockets.js waits for sockets out of libuv's sight, so an idle edge reads as busy.
 */
function wantedCoreNs(): number | undefined {
  try {
    const [running, waiting] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ');
    return Number(running) + Number(waiting);
  } catch {
    return undefined;
  }
}

/**
 * On an edge thread: writes how busy it was every `sampleMs`; the returned function stops and
 * clears it. Without schedstat it writes nothing, and resource work is never held back.
 */
export function publishEdgeLoad(board: EdgeLoadBoard, edge: number, sampleMs: number): () => void {
  let lastNs = wantedCoreNs();
  let lastAt = process.hrtime.bigint();
  const sample = setInterval(() => {
    const ns = wantedCoreNs();
    const at = process.hrtime.bigint();
    if (ns !== undefined && lastNs !== undefined) board.write(edge, (ns - lastNs) / Number(at - lastAt));
    lastNs = ns;
    lastAt = at;
  }, sampleMs);
  sample.unref();
  return () => {
    clearInterval(sample);
    board.write(edge, 0);
  };
}
