// Whom a collector call goes to, as budgets, pauses and circuit breakers are kept
// (docs/platforms.md#each-server-its-own-upstream): the platform itself, or, on a platform whose
// references name their hosts, one of its servers, which fails and limits on its own.
import type { PlatformCode } from '../src/model.js';

/** `<platform>`, or `<platform>/<host>` for a server of a federated platform. */
export type UpstreamKey = string;

export function upstreamKey(platform: PlatformCode, host: string | undefined): UpstreamKey {
  return host === undefined ? platform : `${platform}/${host}`;
}

/** The platform and, for a server of a federated platform, the host of an upstream key. */
export function upstreamParts(key: UpstreamKey): { platform: PlatformCode; host: string | undefined } {
  const slash = key.indexOf('/');
  if (slash < 0) return { platform: key as PlatformCode, host: undefined };
  return { platform: key.slice(0, slash) as PlatformCode, host: key.slice(slash + 1) };
}
