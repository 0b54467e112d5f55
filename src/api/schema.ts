// The schemas of a search request are both its TypeScript types and its compiled validators
// (STYLE: HTTP edge): the envelope (an object with 1-10 references of three strings) in one
// compiled check, then each identifier against its platform and type's compiled address
// syntax (decisions 8), found by name: a union of every platform's reference schema would
// try its alternatives in turn, all fifteen for a reference of the last platform.
import Type, { type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { limits } from '../config.js';
import type { ResourceType } from '../model.js';
import { platforms } from '../platforms/registry.js';
import type { IdentifierRule } from '../platforms/types.js';

export const identifierSchema = (rule: IdentifierRule) =>
  Type.String({ pattern: rule.pattern.source, maxLength: rule.maxLength, minLength: 1 });

const identifierValidators = new Map<string, ReturnType<typeof Compile>>();
for (const platform of platforms.values()) {
  for (const [type, rule] of Object.entries(platform.identifiers) as Array<[ResourceType, IdentifierRule]>) {
    identifierValidators.set(`${platform.code}/${type}`, Compile(identifierSchema(rule)));
  }
}

/**
 * Whether an identifier is valid for a platform and type; false for a platform or type
 * that does not exist. The fast path and the explanations of a 422 both judge by it.
 */
export function isValidIdentifier(platform: string, type: string, identifier: string): boolean {
  return identifierValidators.get(`${platform}/${type}`)?.Check(identifier) ?? false;
}

export const ResourceReference = Type.Object({ platform: Type.String(), type: Type.String(), identifier: Type.String() });
export type ResourceReference = Static<typeof ResourceReference>;

export const SearchEnvelope = Type.Object({
  resources: Type.Array(ResourceReference, { minItems: 1, maxItems: limits.maxResourcesPerRequest }),
});
export type SearchEnvelope = Static<typeof SearchEnvelope>;

const envelopeValidator = Compile(SearchEnvelope);

/** The fast path: whether a parsed body is a valid search request, in compiled checks only. */
export function isValidSearch(body: unknown): body is SearchEnvelope {
  if (!envelopeValidator.Check(body)) return false;
  for (const { platform, type, identifier } of body.resources) {
    if (!isValidIdentifier(platform, type, identifier)) return false;
  }
  return true;
}
