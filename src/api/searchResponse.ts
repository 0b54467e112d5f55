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
/** The most UTF-8 bytes one UTF-16 unit of a string can take. */
const maxBytesPerUnit = 3;

/** Where answers are assembled: a new buffer per answer cost more than the copies into it (bench/README.md, "Cost account"). */
let answer = Buffer.allocUnsafeSlow(16_384);
let at = 0;

export function renderSearchResponse(resources: readonly RequestedResource[], views: ViewSource, now: number): RenderedSearch {
  let wanted: string[] | undefined;
  at = 0;
  copy(opening);
  for (let index = 0; index < resources.length; index++) {
    const resource = resources[index]!;
    const view = views.view(resource.key);
    if (wantedAt(view, now)) {
      wanted ??= [];
      wanted.push(resource.key);
    }
    if (index > 0) {
      room(1);
      answer[at++] = comma;
    }
    writeEntry(resource, view ?? pendingView);
  }
  copy(closing);
  return { body: answer.subarray(0, at), wanted };
}

/**
 * A resource's entry: its echoed reference and its view. An entry shown with the same view a
 * second time is kept as UTF-8 on the reference (which every search naming the identifier
 * shares) and copied from then on; a view seen once (a cold search's) is encoded straight
 * into the answer, without a buffer of its own.
 */
function writeEntry(resource: RequestedResource, view: ResourceView): void {
  if (resource.shownView === view) {
    resource.shownEntry ??= Buffer.from(resource.head + view.entryEnd);
    copy(resource.shownEntry);
    return;
  }
  resource.shownView = view;
  resource.shownEntry = undefined;
  const { head } = resource;
  room(maxBytesPerUnit * (head.length + view.entryEnd.length));
  at += answer.write(head, at);
  at += answer.write(view.entryEnd, at);
}

function copy(bytes: Uint8Array): void {
  room(bytes.length);
  answer.set(bytes, at);
  at += bytes.length;
}

/** Makes room for `bytes` more, keeping what is written. */
function room(bytes: number): void {
  if (at + bytes <= answer.length) return;
  const larger = Buffer.allocUnsafeSlow(2 * (at + bytes));
  answer.copy(larger, 0, 0, at);
  answer = larger;
}
