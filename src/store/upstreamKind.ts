// Emulator counts are never served as real (docs/storage.md#where-the-counts-came-from):
// the data directory records whether its resources were collected from the real platforms or
// from the emulator, and a server of the other kind refuses a directory that holds resources.
import { DataDirectoryError } from './dataDirectoryError.js';
import { entryCount } from './entryCount.js';
import type { Databases, UpstreamKind } from './environment.js';

/** `--upstream`: 'real', or the emulator (in-process, or at a URL). */
export function upstreamKindOf(upstream: string): UpstreamKind {
  return upstream === 'real' ? 'real' : 'emulator';
}

const refusals: Record<UpstreamKind, (dataDir: string) => string> = {
  emulator: (dataDir) =>
    `data directory ${dataDir} holds counts from the emulator, never to be served as real: serve real data from another --data directory`,
  real: (dataDir) =>
    `data directory ${dataDir} holds counts from the real platforms: run against the emulator with another --data directory`,
};

/**
 * Records `kind` as the directory's upstream, or throws a DataDirectoryError when the directory
 * holds resources collected from the other kind. A directory without resources takes any kind:
 * it has nothing to mix up. Call it holding the directory's claim.
 */
export async function adoptUpstreamKind(dbs: Databases, kind: UpstreamKind): Promise<void> {
  const conflicting = await dbs.root.transaction(() => {
    const recorded = dbs.meta.get('upstream');
    if (recorded === kind) return undefined;
    // Resources are counted by their views (resourceStore.ts, count).
    if (recorded !== undefined && entryCount(dbs.views) > 0) return recorded;
    void dbs.meta.put('upstream', kind);
    return undefined;
  });
  if (conflicting) throw new DataDirectoryError(refusals[conflicting](dbs.dataDir));
}
