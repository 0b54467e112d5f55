// The views a search thread keeps decoded (docs/guarantees.md#memory-of-a-search-thread), for the
// resource store and for each edge thread alike: the views recently read or written, in two
// generations of `limits.viewCacheGeneration`.
import { limits } from '../config.js';
import type { StoredView } from './environment.js';
import { RecentMap } from './recentMap.js';
import type { ResourceView } from './records.js';
import { SeenTwiceFilter } from './seenTwiceFilter.js';

export class ViewCache {
  private readonly recent = new RecentMap<string, ResourceView>(limits.viewCacheGeneration);
  /**
   * A view read from disk is kept only on its second recent read: random searches over a
   * million resources read each view about once, and caching all of them cost ~20% of a cold
   * search's requests/s with no hit to show for it.
   */
  private readonly readTwice = new SeenTwiceFilter(2 * limits.viewCacheGeneration);

  get(key: string): ResourceView | undefined {
    return this.recent.get(key);
  }

  /** A view committed or posted: the newest of its resource. */
  set(key: string, view: ResourceView): void {
    this.recent.set(key, view);
  }

  delete(key: string): void {
    this.recent.delete(key);
  }

  /** The view the views database holds, decoded; kept from its second recent reading on. */
  fromDisk(key: string, stored: StoredView): ResourceView {
    const view = { entryEnd: stored[0], refreshAfter: stored[1] };
    if (this.readTwice.admit(key)) this.recent.set(key, view);
    return view;
  }
}
