// A data directory as datapoints wrote it before formats were recorded (format 1): the layout
// of environment.ts and resourceStore.ts at that time, written with lmdb directly.
import { join } from 'node:path';
import { open } from 'lmdb';
import { dueEventFor } from '../../machines/resource.js';
import type { AccountRecord, TokenRecord } from '../../src/store/accountStore.js';
import type { StoredResource } from '../../src/store/resourceStore.js';
import { availableResource, pendingResource, viewOf } from './resourceFixtures.js';

export const formatOneAccount: AccountRecord = {
  name: 'acme',
  plan: 'free',
  quota: 1000,
  rate: { limit: 10, windowMs: 1000 },
  createdAt: '2026-11-01T00:00:00.000Z',
};
export const formatOneToken: TokenRecord = {
  id: 'tok_1',
  account: 'acme',
  digest: 'd'.repeat(64),
  createdAt: '2026-11-01T00:00:00.000Z',
  lastUsedAt: '2026-11-20T00:00:00.000Z',
  revokedAt: null,
};

/**
 * The resources of the directory, by key: more than one chunk of the upgrade's copy. Those
 * collected were collected from `since` on (a server given them collects them again once due).
 */
export function formatOneResources(count: number, since?: number): Map<string, StoredResource> {
  const resources = new Map<string, StoredResource>();
  for (let i = 0; i < count; i++) resources.set(`github/account/user${i}`, i % 10 === 0 ? pendingResource() : availableResource(i, since));
  return resources;
}

export async function writeFormatOne(dataDir: string, resources: Map<string, StoredResource>): Promise<void> {
  const root = open({ path: join(dataDir, 'datapoints.mdb'), mapSize: 64 * 1024 ** 3, maxDbs: 16, cache: false });
  const snapshots = root.openDB({ name: 'resources', sharedStructuresKey: Symbol.for('structures') });
  const views = root.openDB({ name: 'views' });
  const due = root.openDB({ name: 'due', keyEncoding: 'ordered-binary' });
  await root.transaction(() => {
    for (const [key, resource] of resources) {
      const view = viewOf(resource);
      void due.put([resource.context.nextDueAt, key], dueEventFor[resource.value]);
      void snapshots.put(key, resource);
      void views.put(key, [view.entryEnd, view.refreshAfter]);
    }
  });
  await root.openDB({ name: 'accounts' }).put(formatOneAccount.name, formatOneAccount);
  await root.openDB({ name: 'tokens' }).put(formatOneToken.id, formatOneToken);
  await root.openDB({ name: 'tokenDigests' }).put(formatOneToken.digest, formatOneToken.id);
  const usage = root.openDB({ name: 'usage', keyEncoding: 'ordered-binary' });
  await usage.put(['acme', '2026-10'], 812);
  await usage.put(['acme', '2026-11'], 37);
  await root.openDB({ name: 'meta' }).put('authVersion', 3);
  await root.close();
}
