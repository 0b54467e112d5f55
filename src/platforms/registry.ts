// Every platform the service collects from (docs/api.md#a-2: each with a real collector), from
// the one list in definitions.ts.
import { type PlatformCode, platformCodes, type ResourceType } from '../model.js';
import { platformDefinitions } from './definitions.js';
import type { IdentifierRule, PlatformDefinition } from './types.js';

export const platforms: ReadonlyMap<PlatformCode, PlatformDefinition> = new Map(
  platformCodes.map((code) => [code, platformDefinitions[code]]),
);

/** The platform codes, in the order of src/model.ts. */
export { platformCodes };

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
