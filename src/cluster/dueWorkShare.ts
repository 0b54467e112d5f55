// Due work shared by a cluster's collecting nodes (docs/design/cluster.md#due-work-exactly-once):
// the log's revision check lets one node's step win; this index only makes the race rare.
import type { DueIndex, DueWork } from '../../streams/dueWork.js';

/** How many due entries a scan reads for each one it has room to take. */
export const candidatesPerPlace = 8;

/**
 * A resource due less than `spreadMs` ago is offered once this node's own delay (a hash of node
 * and key) has passed, so one node usually steps it and the others find its lease in their
 * replica; a node that dies delays its share by at most `spreadMs`. A backlog is read
 * `candidatesPerPlace` times over and taken in the node's own order, or every node would step
 * the same oldest few.
 *
 * `inWork`: whether this node is stepping or collecting the key already. Such a key stays in the
 * index until its step commits (its lease moves its due time), which in a cluster takes a round
 * trip to NATS; a scan that offered it again would fill its room with steps that find the
 * resource leased, and, in the node's fixed order, with the same keys scan after scan.
 */
export function sharedDueIndex(index: DueIndex, node: string, spreadMs: number, inWork: (key: string) => boolean): DueIndex {
  const delay = (key: string) => (spreadMs > 0 ? delayOf(node, key, spreadMs) : 0);
  return {
    dueBefore(now: number, limit: number): DueWork[] {
      // Each entry's delay is hashed once: it both gates a just-due entry and orders a backlog.
      const offered = index
        .dueBefore(now, limit * candidatesPerPlace)
        .filter((entry) => !inWork(entry.key))
        .map((entry) => ({ entry, order: delay(entry.key) }))
        .filter(({ entry, order }) => entry.dueAt + order <= now);
      // A stable sort: with no spread, every delay is 0 and the oldest come first.
      const taken = offered.length <= limit ? offered : offered.sort((a, b) => a.order - b.order).slice(0, limit);
      return taken.map(({ entry }) => entry);
    },
  };
}

/** The node's delay for the key, in [0, spreadMs): FNV-1a of both, so every node has its own order. */
export function delayOf(node: string, key: string, spreadMs: number): number {
  let hash = 0x811c9dc5;
  for (const text of [node, '\u0000', key]) {
    for (let index = 0; index < text.length; index++) {
      hash ^= text.charCodeAt(index);
      hash = Math.imul(hash, 0x01000193);
    }
  }
  return (hash >>> 0) % spreadMs;
}
