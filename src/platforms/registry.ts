// Every platform the service collects from (docs/api.md#a-2: each with a real collector), from
// the one list in definitions.ts. A definition filed under another name than its code does
// not compile.
import type { PlatformCode, ResourceType } from '../model.js';
import * as definitions from './definitions.js';
import type { IdentifierRule, PlatformDefinition } from './types.js';

const byCode: { readonly [Code in PlatformCode]: PlatformDefinition<Code> } = definitions;

export const platforms: ReadonlyMap<PlatformCode, PlatformDefinition> = new Map(
  Object.values(byCode).map((platform: PlatformDefinition) => [platform.code, platform]),
);

/** The platform codes, in the order of definitions.ts. */
export const platformCodes: readonly PlatformCode[] = [...platforms.keys()];

/** One platform and type the service accepts, with its identifier rule. */
export interface PlatformRule {
  platform: PlatformCode;
  type: ResourceType;
  rule: IdentifierRule;
}

/** Every platform and type the service accepts, platform by platform in the order above. */
export const identifierRules: readonly PlatformRule[] = [...platforms.values()].flatMap((platform) =>
  (Object.entries(platform.identifiers) as Array<[ResourceType, IdentifierRule]>).map(([type, rule]) => ({
    platform: platform.code,
    type,
    rule,
  })),
);
