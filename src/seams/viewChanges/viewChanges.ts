// The "a resource's view changed" seam (docs/push.md#where-changes-come-from): whatever commits
// views tells it; the push module forwards each change to the clients following that resource.
import type { ResourceView } from '../../resources/view.js';

export type ViewChangeListener = (key: string, view: ResourceView) => void;

export interface ViewChanges {
  /** `key`'s committed view is now `view`. Told in commit order for any one resource. */
  changed(key: string, view: ResourceView): void;
  /** Hears every change told from now on, in the order told; returns what stops it. */
  listen(listener: ViewChangeListener): () => void;
}

/** Tells the listeners of this thread, synchronously; a change nobody hears is dropped. */
export class InProcessViewChanges implements ViewChanges {
  private readonly listeners = new Set<ViewChangeListener>();

  changed(key: string, view: ResourceView): void {
    for (const listener of this.listeners) listener(key, view);
  }

  listen(listener: ViewChangeListener): () => void {
    // A wrapper per call, so that one function listening twice is two listeners, stopped apart.
    const entry: ViewChangeListener = (key, view) => listener(key, view);
    this.listeners.add(entry);
    return () => void this.listeners.delete(entry);
  }
}
