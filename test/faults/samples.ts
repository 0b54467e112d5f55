// Valid identifiers for any registered platform's rules, without hard-coding the platforms:
// the rule's own valid example, varied in its letters to give distinct resources. The
// examples avoid the emulator's name conventions (missing*, flaky*, slow*, rounded*).
import type { IdentifierRule } from '../../src/platforms/types.js';

const valid = (rule: IdentifierRule, identifier: string) => identifier.length <= rule.maxLength && rule.pattern.test(identifier);

/** The `index`-th distinct valid identifier of `rule`: letters from position 2 on spell the index. */
export function sampleIdentifier(rule: IdentifierRule, index: number): string {
  const seed = rule.examples.valid;
  if (!valid(rule, seed)) throw new Error(`the valid example '${seed}' does not match ${rule.pattern}`);
  // Least significant digit first: a seed with only a letter or two to vary (reddit's `spez`)
  // still gives every index below 10, or 100, an identifier of its own.
  const tag = [...index.toString(10).padStart(4, '0')].reverse().map((digit) => String.fromCharCode(97 + Number(digit)));
  const chars = [...seed];
  for (let position = 2, next = 0; position < chars.length && next < tag.length; position++) {
    if (/[a-z]/.test(chars[position]!)) chars[position] = tag[next++]!;
  }
  const identifier = chars.join('');
  if (!valid(rule, identifier)) throw new Error(`variant '${identifier}' of '${seed}' does not match ${rule.pattern}`);
  return identifier;
}
