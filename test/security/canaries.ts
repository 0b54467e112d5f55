// Every platform and type the service accepts, each with one well-formed, unremarkable
// identifier (none of the emulator's `missing`/`flaky`/`slow` conventions): the valid
// example of its identifier rule, so a new platform brings its own.
import { identifierRules, type PlatformRule } from '../../src/platforms/registry.js';

export type Rule = PlatformRule;

export const rules: readonly Rule[] = identifierRules;

/** The canary of a platform and type: the valid example its identifier rule declares. */
export function canaryOf({ rule }: Pick<Rule, 'rule'>): string {
  return rule.examples.valid;
}
