// The 200 body of a search (docs/api.md#a-10): one entry per requested resource, in request
// order, each the echoed reference (rendered once per identifier, src/api/schema.ts) followed by
// the resource's pre-rendered view. Rendering only
// reads (docs/architecture.md#reads-are-reads): the resources the answer found unknown or
// due a refresh are returned for the caller to ask for, after it has answered.
import { pendingView, type ResourceView, wantedAt, type ViewSource } from '../resources/view.js';
import type { RequestedResource } from './validation.js';

export interface RenderedSearch {
  /**
   * UTF-8, written as it is: uWS copies bytes without converting them, where a string is
   * flattened and encoded per answer. It is a view of one buffer every answer reuses, valid
   * until the next search is rendered: write or decode it before that.
   */
  body: Buffer;
  /** Keys to hand to ResourceDemand.wanted; absent when there are none (a warm search allocates nothing). */
  wanted: string[] | undefined;
}

const opening = Buffer.from('{"data":[');
const closing = Buffer.from(']}');
const comma = 0x2c;

/** Each entry of the answer being rendered, reused: at most ten (limits.maxResourcesPerRequest) are held at once. */
const entries: Uint8Array[] = [];
/** Where answers are assembled: a new buffer per answer cost more than the copies into it (bench/README.md, "Cost account"). */
let answerBuffer = Buffer.allocUnsafeSlow(16_384);

export function renderSearchResponse(resources: readonly RequestedResource[], views: ViewSource, now: number): RenderedSearch {
  let wanted: string[] | undefined;
  let size = opening.length + closing.length + Math.max(0, resources.length - 1);
  for (let index = 0; index < resources.length; index++) {
    const resource = resources[index]!;
    const view = views.view(resource.key);
    if (wantedAt(view, now)) {
      wanted ??= [];
      wanted.push(resource.key);
    }
    const entry = entryOf(resource, view ?? pendingView);
    entries[index] = entry;
    size += entry.length;
  }
  if (size > answerBuffer.length) answerBuffer = Buffer.allocUnsafeSlow(2 * size);
  const body = answerBuffer;
  body.set(opening, 0);
  let at = opening.length;
  for (let index = 0; index < resources.length; index++) {
    if (index > 0) body[at++] = comma;
    const entry = entries[index]!;
    body.set(entry, at);
    at += entry.length;
  }
  body.set(closing, at);
  entries.length = 0;
  return { body: body.subarray(0, at + closing.length), wanted };
}

/**
 * A resource's whole entry as UTF-8: its echoed reference and its view, encoded once per view
 * (a view is a new object at each change) and kept on the reference, which every search naming
 * the identifier shares.
 */
function entryOf(resource: RequestedResource, view: ResourceView): Uint8Array {
  if (resource.shownView !== view) {
    resource.shownEntry = Buffer.from(resource.head + view.entryEnd);
    resource.shownView = view;
  }
  return resource.shownEntry!;
}
