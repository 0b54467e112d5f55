// Every platform and type the service accepts, each with one well-formed, unremarkable
// identifier (none of the emulator's `missing`/`flaky`/`slow` conventions): the valid
// example of its identifier rule, so a new platform brings its own.
import type { PlatformCode, ResourceType } from '../../src/model.js';
import { platforms } from '../../src/platforms/registry.js';
import type { IdentifierRule } from '../../src/platforms/types.js';

export interface Rule {
  platform: PlatformCode;
  type: ResourceType;
  rule: IdentifierRule;
}

export const rules: Rule[] = [...platforms.values()].flatMap((platform) =>
  (Object.entries(platform.identifiers) as Array<[ResourceType, IdentifierRule]>).map(([type, rule]) => ({
    platform: platform.code,
    type,
    rule,
  })),
);

/** The canary of a platform and type: the valid example its identifier rule declares. */
export function canaryOf({ rule }: Pick<Rule, 'rule'>): string {
  return rule.examples.valid;
}
