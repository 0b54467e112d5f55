// The 200 body of a search (docs/api.md#a-10): one entry per requested resource, in request order,
// each the echoed reference followed by the resource's pre-rendered view.
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

/** Where answers are assembled: a new buffer per answer cost more than the copies into it (bench/README.md#cost-account). */
let answer = Buffer.allocUnsafeSlow(16_384);
let at = 0;
/** Entries (and their commas) of views seen once, not yet written: encoded together, in one call. */
let text = '';

/**
 * Each entry's echoed reference is rendered once per identifier (src/api/schema.ts). Rendering
 * only reads (docs/architecture.md#reads-are-reads): the resources the answer found unknown or
 * due a refresh are returned for the caller to ask for, after it has answered.
 */
export function renderSearchResponse(resources: readonly RequestedResource[], views: ViewSource, now: number): RenderedSearch {
  let wanted: string[] | undefined;
  at = 0;
  copy(opening);
  for (let index = 0; index < resources.length; index++) {
    const resource = resources[index]!;
    const found = views.view(resource.key);
    if (wantedAt(found, now)) {
      wanted ??= [];
      wanted.push(resource.key);
    }
    const view = found ?? pendingView;
    const entry = keptEntry(resource, view);
    if (entry === undefined) {
      text += index > 0 ? `,${resource.head}${view.entryEnd}` : resource.head + view.entryEnd;
      continue;
    }
    writeText();
    if (index > 0) {
      room(1);
      answer[at++] = comma;
    }
    copy(entry);
  }
  writeText();
  copy(closing);
  return { body: answer.subarray(0, at), wanted };
}

/**
 * A resource's entry (its echoed reference and its view) as UTF-8, from its second showing with
 * the same view on: kept on the reference, which every search naming the identifier shares.
 * Undefined for a view seen once (a cold search's), whose entry is encoded straight into the
 * answer without a buffer of its own.
 */
function keptEntry(resource: RequestedResource, view: ResourceView): Uint8Array | undefined {
  if (resource.shownView === view) {
    resource.shownEntry ??= Buffer.from(resource.head + view.entryEnd);
    return resource.shownEntry;
  }
  resource.shownView = view;
  resource.shownEntry = undefined;
  return undefined;
}

function writeText(): void {
  if (text === '') return;
  room(maxBytesPerUnit * text.length);
  at += answer.write(text, at);
  text = '';
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
