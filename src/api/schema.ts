// The schemas of a search request are both its TypeScript types and its compiled validators
// (docs/dependencies.md#typebox): the envelope (an object with 1-10 references of three strings) in one
// compiled check, then each identifier against its platform and type's compiled address
// syntax (docs/api.md#a-5), found by name: a union of every platform's reference schema would
// try its alternatives in turn, all fifteen for a reference of the last platform.
import Type, { type Static, type TSchema, type TSchemaOptions } from 'typebox';
import { Compile } from 'typebox/compile';
import { limits } from '../config.js';
import { identifierRules } from '../platforms/registry.js';
import type { IdentifierRule } from '../platforms/types.js';

export const identifierSchema = (rule: IdentifierRule) =>
  Type.String({ pattern: rule.pattern.source, maxLength: rule.maxLength, minLength: rule.minLength });

/** What a reference's platform and type accept: the compiled address syntax, and its rule. */
export interface IdentifierSyntax {
  isValid(identifier: string): boolean;
  rule: IdentifierRule;
}

/** By platform code, then type: no key string is built per reference to find them. */
const syntaxes = new Map<string, Map<string, IdentifierSyntax>>();
for (const { platform, type, rule } of identifierRules) {
  const validator = Compile(identifierSchema(rule));
  const byType = syntaxes.get(platform) ?? new Map<string, IdentifierSyntax>();
  syntaxes.set(platform, byType);
  byType.set(type, { isValid: (identifier) => validator.Check(identifier), rule });
}

/**
 * The syntax of a platform and type; undefined for a platform or type that does not exist.
 * The fast path and the explanations of a 422 both judge by it.
 */
export function identifierSyntax(platform: string, type: string): IdentifierSyntax | undefined {
  return syntaxes.get(platform)?.get(type);
}

/** A reference's three fields; the OpenAPI document fills them per platform and type (./openapiRequest.ts). */
export const referenceOf = <Fields extends { platform: TSchema; type: TSchema; identifier: TSchema }>(
  fields: Fields,
  options?: TSchemaOptions,
) => Type.Object(fields, options);

/** A search body: 1 to 10 references. */
export const searchRequestOf = <Reference extends TSchema>(reference: Reference, options?: TSchemaOptions) =>
  Type.Object({ resources: Type.Array(reference, { minItems: 1, maxItems: limits.maxResourcesPerRequest }) }, options);

/** The fast path's shape: three strings; each identifier is then judged by its platform and type's syntax. */
export const ResourceReference = referenceOf({ platform: Type.String(), type: Type.String(), identifier: Type.String() });
export type ResourceReference = Static<typeof ResourceReference>;

export const SearchEnvelope = searchRequestOf(ResourceReference);
export type SearchEnvelope = Static<typeof SearchEnvelope>;

const envelopeValidator = Compile(SearchEnvelope);

/** The fast path's first check: an object with 1-10 references of three strings each. */
export function isSearchEnvelope(body: unknown): body is SearchEnvelope {
  return envelopeValidator.Check(body);
}
