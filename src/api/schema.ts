// The schemas of a search request, both its TypeScript types and its compiled validators
// (docs/dependencies.md#typebox): the envelope, then each identifier against its syntax (docs/api.md#a-5).
import Type, { type Static, type TSchema, type TSchemaOptions } from 'typebox';
import { Compile } from 'typebox/compile';
import { limits } from '../config.js';
import { resourceKey, type PlatformCode, type ResourceType } from '../model.js';
import { identifierRules } from '../platforms/registry.js';
import type { IdentifierRule } from '../platforms/types.js';
import type { ResourceView } from '../resources/view.js';

export const identifierSchema = (rule: IdentifierRule) =>
  Type.String({ pattern: rule.pattern.source, maxLength: rule.maxLength, minLength: rule.minLength });

/** A valid reference as a search uses it; one object per identifier as sent, shared by every search naming it. */
export interface RequestedResource {
  readonly platform: PlatformCode;
  readonly type: ResourceType;
  /** As sent: the response echoes it (docs/api.md#a-8). */
  readonly identifier: string;
  /** The normalized key the resource is tracked under. */
  readonly key: string;
  /** The opening of its entry in an answer (docs/api.md#a-10): the reference echoed, up to its view. */
  readonly head: string;
  /** The view its entry was last shown with, and that entry (head and view) as UTF-8 once shown twice (src/api/searchResponse.ts). */
  shownView: ResourceView | undefined;
  shownEntry: Uint8Array | undefined;
}

/** What a reference's platform and type accept: the compiled address syntax, and its rule. */
export interface IdentifierSyntax {
  isValid(identifier: string): boolean;
  /** The reference a valid identifier (as sent) makes; undefined when it is not valid. */
  requested(identifier: string): RequestedResource | undefined;
  rule: IdentifierRule;
}

/** Identifiers a syntax remembers before it starts over (a few MB at most). */
const rememberedIdentifiers = 20_000;

/**
 * Checks, normalizes, keys and renders an identifier once, then answers from memory: a search
 * names the same resources again and again, and a remembered key is a string whose hash V8 has
 * already computed, where a key built per request must be hashed again by every map it is
 * looked up in (bench/README.md#cost-account: 10 lookups cost 3 µs with fresh keys, 0.5 µs
 * with these).
 */
function syntaxOf(platform: PlatformCode, type: ResourceType, rule: IdentifierRule): IdentifierSyntax {
  const validator = Compile(identifierSchema(rule));
  const { refines } = rule;
  const isValid = (identifier: string) => validator.Check(identifier) && (refines === undefined || refines.accepts(identifier));
  let known = new Map<string, RequestedResource>();
  return {
    isValid,
    requested(identifier) {
      const remembered = known.get(identifier);
      if (remembered !== undefined || !isValid(identifier)) return remembered;
      // platform and type are registry literals; only the identifier needs escaping.
      const head = `{"platform":"${platform}","type":"${type}","identifier":${JSON.stringify(identifier)}`;
      const key = resourceKey({ platform, type, identifier: rule.normalize(identifier) });
      const resource: RequestedResource = { platform, type, identifier, key, head, shownView: undefined, shownEntry: undefined };
      if (known.size >= rememberedIdentifiers) known = new Map();
      known.set(identifier, resource);
      return resource;
    },
    rule,
  };
}

/**
 * By platform code, then type: no key string is built per reference to find them. Found by name,
 * each identifier is checked against its own compiled syntax only: a union of every platform's
 * reference schema would try its alternatives in turn, all fifteen for the last platform's.
 */
const syntaxes = new Map<string, Map<string, IdentifierSyntax>>();
for (const { platform, type, rule } of identifierRules) {
  const byType = syntaxes.get(platform) ?? new Map<string, IdentifierSyntax>();
  syntaxes.set(platform, byType);
  byType.set(type, syntaxOf(platform, type, rule));
}

/**
 * The syntax of a platform and type; undefined for a platform or type that does not exist.
 * The fast path and the explanations of a 422 both judge by it.
 */
export function identifierSyntax(platform: string, type: string): IdentifierSyntax | undefined {
  // A search names one platform and type again and again: comparing two short strings is
  // cheaper than hashing them for two maps (bench/README.md#cost-account).
  if (platform === lastPlatform && type === lastType) return lastSyntax;
  lastSyntax = syntaxes.get(platform)?.get(type);
  lastPlatform = platform;
  lastType = type;
  return lastSyntax;
}

/** The last platform and type asked for, and their syntax. */
let lastPlatform = '';
let lastType = '';
let lastSyntax: IdentifierSyntax | undefined;

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

/** The fast path's first check, in one compiled check: an object with 1-10 references of three strings each. */
export function isSearchEnvelope(body: unknown): body is SearchEnvelope {
  return envelopeValidator.Check(body);
}
