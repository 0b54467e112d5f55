// The resource log of a cluster (docs/design/cluster.md#resource-replication): the last
// change of every resource, in one order, appended on condition and followed by every node.
import type { AppendResult, LoggedChange, ResourceCommitLog } from '../../store/resourceReplica.js';
import type { ResourceChange } from '../../store/resourceStore.js';

/** The changes after a revision, in log order, then each new one as it is appended. */
export interface LogFollower extends AsyncIterable<LoggedChange> {
  /** Ends the iteration; changes not yet taken are dropped. */
  stop(): void;
}

/**
 * Appends on condition of the resource's last revision, which makes one writer per resource
 * cluster-wide. InProcessResourceLog is the seam's reference implementation; the JetStream one
 * (resourceLogStream.ts) runs clusters.
 */
export interface ResourceLog extends ResourceCommitLog {
  /** The key's last change, or undefined when it has none. */
  latest(key: string): Promise<LoggedChange | undefined>;
  /** The revision of the last change appended to the log (0: none). */
  head(): Promise<number>;
  /**
   * Follows the log from just after `afterRevision`: the last change of every key changed since,
   * in revision order (a change followed by a later one of its key may be skipped), then each
   * change as it is appended.
   */
  follow(afterRevision: number): Promise<LogFollower>;
}

export class InProcessResourceLog implements ResourceLog {
  /** Each key's last change, in the order of their revisions (a Map keeps insertion order). */
  private readonly changes = new Map<string, LoggedChange>();
  private revision = 0;
  private appended: Array<() => void> = [];

  async append(key: string, expectedRevision: number, change: ResourceChange): Promise<AppendResult> {
    const current = this.changes.get(key);
    if ((current?.revision ?? 0) !== expectedRevision) return { appended: false, current };
    const logged = { key, revision: ++this.revision, ...change };
    // Deleted first, so that the key moves to the end of the order.
    this.changes.delete(key);
    this.changes.set(key, logged);
    for (const wake of this.appended.splice(0)) wake();
    return { appended: true, revision: logged.revision };
  }

  async latest(key: string): Promise<LoggedChange | undefined> {
    return this.changes.get(key);
  }

  async head(): Promise<number> {
    return this.revision;
  }

  async follow(afterRevision: number): Promise<LogFollower> {
    let stopped = false;
    let wakeStopped: (() => void) | undefined;
    const log = this;
    async function* changes(): AsyncGenerator<LoggedChange> {
      let after = afterRevision;
      while (!stopped) {
        // A later append of a key moves it past the cursor, so a scan from the start finds every
        // change after it; the reference implementation trades speed for being obviously right.
        const next = [...log.changes.values()].find((change) => change.revision > after);
        if (next) {
          after = next.revision;
          yield next;
          continue;
        }
        await new Promise<void>((resolve) => {
          wakeStopped = resolve;
          log.appended.push(resolve);
        });
      }
    }
    const iterable = changes();
    return {
      [Symbol.asyncIterator]: () => iterable,
      stop() {
        stopped = true;
        wakeStopped?.();
      },
    };
  }
}
