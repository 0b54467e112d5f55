// Which resources the connections of one uWebSockets.js app follow, and the forwarding of each
// change to them (docs/push.md#where-changes-come-from).
import type { ResourceView } from '../resources/view.js';
import type { RequestedResource } from '../api/validation.js';
import { updatePrefix } from './messages.js';

interface Spelling {
  topic: string;
  prefix: string;
  /** Connections of this app following this spelling. */
  followers: number;
}

interface Watch {
  /** The last view this app forwarded or showed for the resource: an equal commit is no change. */
  lastEntryEnd: string;
  spellings: Map<string, Spelling>;
}

export type Publish = (topic: string, message: string) => void;

/** The topic of one reference as sent: identifiers never hold a space (docs/api.md#a-5). */
export const topicOf = (resource: RequestedResource): string => `${resource.key} ${resource.identifier}`;

/**
 * One uWS topic per reference as sent: the entry echoes the identifier as sent (docs/api.md#a-8),
 * so `Torvalds` and `torvalds` are two topics of one resource. A change is rendered once per
 * spelling followed here and published with uWS's pub/sub; a change nobody here follows costs
 * one map lookup.
 */
export class SubscriptionRegistry {
  private readonly watched = new Map<string, Watch>();

  constructor(private readonly publish: Publish) {}

  /** One more connection follows `resource`, whose view it was just shown (`shownEntryEnd`). */
  follow(resource: RequestedResource, shownEntryEnd: string): void {
    let watch = this.watched.get(resource.key);
    if (!watch) {
      watch = { lastEntryEnd: shownEntryEnd, spellings: new Map() };
      this.watched.set(resource.key, watch);
    }
    const spelling = watch.spellings.get(resource.identifier);
    if (spelling) spelling.followers++;
    else {
      const prefix = updatePrefix(resource.platform, resource.type, resource.identifier);
      watch.spellings.set(resource.identifier, { topic: topicOf(resource), prefix, followers: 1 });
    }
  }

  /** One connection stopped following `resource` (unsubscribed, or closed). */
  unfollow(resource: RequestedResource): void {
    const watch = this.watched.get(resource.key);
    const spelling = watch?.spellings.get(resource.identifier);
    if (!watch || !spelling) return;
    spelling.followers--;
    if (spelling.followers > 0) return;
    watch.spellings.delete(resource.identifier);
    if (watch.spellings.size === 0) this.watched.delete(resource.key);
  }

  changed(key: string, view: ResourceView): void {
    const watch = this.watched.get(key);
    if (!watch || watch.lastEntryEnd === view.entryEnd) return;
    watch.lastEntryEnd = view.entryEnd;
    const rest = `${view.entryEnd}]}`;
    for (const spelling of watch.spellings.values()) this.publish(spelling.topic, spelling.prefix + rest);
  }

  /** Resources followed on this app (for tests and the benchmark). */
  get size(): number {
    return this.watched.size;
  }
}
