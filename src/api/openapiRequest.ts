// The search request as the OpenAPI document publishes it (docs/api.md#openapi-request), composed by
// reference from the schemas the server validates with (./schema.ts), so no schema is written twice.
import Type, { type TSchema } from 'typebox';
import type { PlatformCode, ResourceType } from '../model.js';
import { identifierRules, platforms } from '../platforms/registry.js';
import { identifierSchema, referenceOf, searchRequestOf } from './schema.js';

const componentPath = (name: string) => `#/components/schemas/${name}`;
const component = (name: string) => Type.Ref(componentPath(name));

const identifierName = (platform: PlatformCode, type: ResourceType) => `Identifier.${platform}.${type}`;
const pairName = (platform: PlatformCode, type: ResourceType) => `Reference.${platform}.${type}`;
const platformName = (platform: PlatformCode) => `Reference.${platform}`;

/** A one-value enum rather than `const`: client generators read it as the discriminator's value. */
const only = (value: string) => Type.String({ enum: [value] });

/**
 * `Identifier.<platform>.<type>` (the syntax, with its hint and form), `Reference.<platform>.<type>`
 * (a reference of that pair), `Reference.<platform>` (one of the platform's pairs, told apart by
 * `type`), `ResourceReference` (one of the platforms, told apart by `platform`) and `SearchRequest`.
 */
export function requestSchemas(): Record<string, TSchema> & { ResourceReference: TSchema; SearchRequest: TSchema } {
  const schemas: Record<string, TSchema> = {};
  for (const { platform, type, rule } of identifierRules) {
    schemas[identifierName(platform, type)] = {
      ...identifierSchema(rule),
      description: `${rule.hint} (${rule.syntax})`,
      examples: [rule.examples.valid],
    };
    schemas[pairName(platform, type)] = referenceOf(
      { platform: only(platform), type: only(type), identifier: component(identifierName(platform, type)) },
      { title: pairName(platform, type), examples: [{ platform, type, identifier: rule.examples.valid }] },
    );
  }
  const byPlatform: Record<string, string> = {};
  for (const platform of platforms.values()) {
    const types = Object.keys(platform.identifiers) as ResourceType[];
    if (types.length === 1) {
      byPlatform[platform.code] = componentPath(pairName(platform.code, types[0]!));
      continue;
    }
    const byType = Object.fromEntries(types.map((type) => [type, componentPath(pairName(platform.code, type))]));
    schemas[platformName(platform.code)] = {
      title: platformName(platform.code),
      oneOf: types.map((type) => component(pairName(platform.code, type))),
      discriminator: { propertyName: 'type', mapping: byType },
    };
    byPlatform[platform.code] = componentPath(platformName(platform.code));
  }
  const ResourceReference = {
    description: 'One resource: a platform, a type that platform accepts, and an identifier in the syntax of that pair',
    oneOf: Object.values(byPlatform).map((path) => Type.Ref(path)),
    discriminator: { propertyName: 'platform', mapping: byPlatform },
  };
  return { ...schemas, ResourceReference, SearchRequest: searchRequestOf(component('ResourceReference')) };
}
