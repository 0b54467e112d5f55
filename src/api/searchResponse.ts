// The 200 body of a search (docs/api.md#a-10): one entry per requested resource, in request
// order, each the echoed reference (rendered once per identifier, src/api/schema.ts) followed by
// the resource's pre-rendered view. Rendering only
// reads (docs/architecture.md#reads-are-reads): the resources the answer found unknown or
// due a refresh are returned for the caller to ask for, after it has answered.
import { pendingView, wantedAt, type ViewSource } from '../resources/view.js';
import type { RequestedResource } from './validation.js';

export interface RenderedSearch {
  body: string;
  /** Keys to hand to ResourceDemand.wanted; absent when there are none (a warm search allocates nothing). */
  wanted: string[] | undefined;
}

export function renderSearchResponse(resources: readonly RequestedResource[], views: ViewSource, now: number): RenderedSearch {
  let body = '{"data":[';
  let wanted: string[] | undefined;
  for (let index = 0; index < resources.length; index++) {
    const resource = resources[index]!;
    if (index > 0) body += ',';
    body += resource.head;
    const view = views.view(resource.key);
    if (wantedAt(view, now)) {
      wanted ??= [];
      wanted.push(resource.key);
    }
    body += (view ?? pendingView).entryEnd;
  }
  return { body: `${body}]}`, wanted };
}
