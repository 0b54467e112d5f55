// How busy the edge threads are, for the pace of the resource thread's work
// (docs/architecture.md#searches-first): every `limits.edgeLoad.sampleMs` each edge writes the
// share of that time its event loop was not waiting for sockets into its slot of a shared
// buffer; the resource thread reads the busiest edge. Searches waiting keep a loop busy, so a
// busy edge is one whose searches the resource work should leave the core to.
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/** Per slot, utilization in parts per million (Int32: whole numbers, written and read atomically). */
const scale = 1_000_000;

export class EdgeLoadBoard {
  readonly buffer: SharedArrayBuffer;
  private readonly slots: Int32Array;

  /** A new board of `edges` slots, or the view of one made on another thread. */
  constructor(edgesOrBuffer: number | SharedArrayBuffer) {
    this.buffer = typeof edgesOrBuffer === 'number' ? new SharedArrayBuffer(edgesOrBuffer * Int32Array.BYTES_PER_ELEMENT) : edgesOrBuffer;
    this.slots = new Int32Array(this.buffer);
  }

  /** The busiest edge's last utilization, 0 (waiting for sockets all the time) to 1 (never). */
  busiest(): number {
    let most = 0;
    for (let index = 0; index < this.slots.length; index++) most = Math.max(most, Atomics.load(this.slots, index));
    return most / scale;
  }

  write(edge: number, utilization: number): void {
    Atomics.store(this.slots, edge, Math.round(Math.min(1, Math.max(0, utilization)) * scale));
  }
}

/** On an edge thread: writes its loop's utilization every `sampleMs`; the returned function stops and clears it. */
export function publishEdgeLoad(board: EdgeLoadBoard, edge: number, sampleMs: number): () => void {
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  const sample = setInterval(() => {
    const now = performance.eventLoopUtilization();
    board.write(edge, performance.eventLoopUtilization(now, last).utilization);
    last = now;
  }, sampleMs);
  sample.unref();
  return () => {
    clearInterval(sample);
    board.write(edge, 0);
  };
}
