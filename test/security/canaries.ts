// Every platform and type the service accepts, each with one well-formed, unremarkable
// identifier (none of the emulator's `missing`/`flaky`/`slow` conventions).
import type { PlatformCode, ResourceType } from '../../src/model.js';
import { platforms } from '../../src/platforms/registry.js';
import type { IdentifierRule } from '../../src/platforms/types.js';

export interface Rule {
  platform: PlatformCode;
  type: ResourceType;
  rule: IdentifierRule;
}

export const rules: Rule[] = [...platforms.values()].flatMap((platform) =>
  (Object.entries(platform.identifiers) as Array<[ResourceType, IdentifierRule]>).map(([type, rule]) => ({ platform: platform.code, type, rule })),
);

const canaries: Record<string, string> = {
  'github/account': 'octocat',
  'github/post': 'octocat:hello-world',
  'facebook/account': 'nasagov',
  'instagram/account': 'natgeo',
  'threads/account': 'zuck',
  'threads/post': 'zuck:1234567890',
  'tiktok/account': 'khaby.lame',
  'linkedin/account': 'satya-nadella',
  'linkedin/organization': 'microsoft',
  'bluesky/account': 'alice.bsky.social',
  'bluesky/post': 'alice.bsky.social:3jwdwj2ctlk26',
  'youtube/account': '@mkbhd',
  'youtube/post': 'dQw4w9WgXcQ',
  'x/account': 'xdevelopers',
  'x/post': 'xdevelopers:1460323737035677698',
};

/** The canary of a platform and type; a type added to the registry without one fails loudly. */
export function canaryOf({ platform, type }: Pick<Rule, 'platform' | 'type'>): string {
  const canary = canaries[`${platform}/${type}`];
  if (canary === undefined) throw new Error(`no canary identifier for ${platform}/${type}: add one to test/security/canaries.ts`);
  return canary;
}
