// One schema is both the TypeScript type of a search request and its compiled validator
// (STYLE: HTTP edge). It is built from the platform registry, so each platform's address
// syntax (decisions 8) is checked in the same compiled pass as the request's shape.
import Type, { type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { limits } from '../config.js';
import type { ResourceType } from '../model.js';
import { platforms } from '../platforms/registry.js';
import type { IdentifierRule } from '../platforms/types.js';

export const identifierSchema = (rule: IdentifierRule) =>
  Type.String({ pattern: rule.pattern.source, maxLength: rule.maxLength, minLength: 1 });

const referenceSchemas: TSchema[] = [];
const identifierValidators = new Map<string, ReturnType<typeof Compile>>();
for (const platform of platforms.values()) {
  for (const [type, rule] of Object.entries(platform.identifiers) as Array<[ResourceType, IdentifierRule]>) {
    referenceSchemas.push(
      Type.Object({ platform: Type.Literal(platform.code), type: Type.Literal(type), identifier: identifierSchema(rule) }),
    );
    identifierValidators.set(`${platform.code}/${type}`, Compile(identifierSchema(rule)));
  }
}

/**
 * Whether an identifier is valid for an accepted platform and type, judged by the same
 * compiled schema as the fast path, so an explanation never disagrees with the check.
 */
export function isValidIdentifier(platform: string, type: string, identifier: string): boolean {
  return identifierValidators.get(`${platform}/${type}`)!.Check(identifier);
}

export const SearchRequest = Type.Object({
  resources: Type.Array(Type.Union(referenceSchemas), { minItems: 1, maxItems: limits.maxResourcesPerRequest }),
});

export interface ResourceReference {
  platform: string;
  type: string;
  identifier: string;
}

/** The whole request in one compiled check: the fast path for valid requests. */
export const searchRequestValidator = Compile(SearchRequest);
