// The 200 body of a search (service-spec 4): one entry per requested resource, in request
// order, each the echoed reference followed by the resource's pre-rendered view.
import type { ResourceHost } from '../resources/host.js';
import type { RequestedResource } from './validation.js';

export function renderSearchResponse(resources: readonly RequestedResource[], host: ResourceHost, now: number): string {
  let body = '{"data":[';
  for (let index = 0; index < resources.length; index++) {
    const resource = resources[index]!;
    if (index > 0) body += ',';
    // platform and type are registry literals; only the identifier needs escaping.
    body += `{"platform":"${resource.platform}","type":"${resource.type}","identifier":${JSON.stringify(resource.identifier)}`;
    body += host.viewFor(resource.key, now).tail;
  }
  return body + ']}';
}
