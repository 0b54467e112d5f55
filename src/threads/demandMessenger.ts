// ResourceDemand across threads (docs/guarantees.md#threads): an edge thread tells the
// resource thread which resources its answers found unknown or due a refresh; the resource
// thread, the only writer of resources, acts on it.
import type { MessagePort } from 'node:worker_threads';
import type { ResourceDemand } from '../resources/demand.js';

type DemandMessage = [keys: readonly string[], at: number];

/** The edge's side: posts what searches want. */
export class DemandMessenger implements ResourceDemand {
  constructor(private readonly port: MessagePort) {}

  wanted(keys: readonly string[], at: number): void {
    const message: DemandMessage = [keys, at];
    this.port.postMessage(message);
  }
}

/** The resource thread's side: hands every message from an edge to `demand`. */
export function receiveDemand(port: MessagePort, demand: ResourceDemand): void {
  port.on('message', ([keys, at]: DemandMessage) => demand.wanted(keys, at));
}
