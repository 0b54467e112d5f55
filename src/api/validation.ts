// Turns a request body into the resources to look up, or into every validation message at once
// (docs/api.md#errors, docs/api.md#a-40, docs/api.md#a-41).
import { limits } from '../config.js';
import type { PlatformCode } from '../model.js';
import { platformCodes, platforms } from '../platforms/registry.js';
import type { IdentifierRule } from '../platforms/types.js';
import { commonSearchFields } from './commonSearchBody.js';
import { identifierSyntax, isSearchEnvelope, type RequestedResource, type ResourceReference } from './schema.js';

export type { RequestedResource };

export type SearchValidation = { ok: true; resources: RequestedResource[] } | { ok: false; errors: string[] };

/**
 * A request body as sent, parsed and validated. A body of the common shape is read without
 * JSON.parse (./commonSearchBody.ts), any other is parsed first. A body with nothing in it (empty, or only
 * whitespace) has no resources: blank, like `{}` (docs/http.md#request-bodies). Checked only
 * after JSON.parse fails, so a valid body pays nothing for it.
 */
export function validateSearchText(text: string): SearchValidation {
  const fields = commonSearchFields(text);
  const common = fields && requestedFields(fields);
  if (common) return { ok: true, resources: common };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, errors: [isBlankText(text) ? blankResources : 'Request body must be valid JSON'] };
  }
  return validateSearch(body);
}

/** JSON's own whitespace (RFC 8259): what JSON.parse would skip around a value. */
const isBlankText = (text: string) => /^[ \t\n\r]*$/.test(text);

const blankResources = "Resources can't be blank";

/** Valid bodies take the compiled checks only; only invalid ones walk the body to explain what is wrong. */
export function validateSearch(body: unknown): SearchValidation {
  const resources = isSearchEnvelope(body) ? requested(body.resources) : undefined;
  return resources ? { ok: true, resources } : { ok: false, errors: explain(body) };
}

/**
 * The resources a valid envelope asks for, in one pass that checks, normalizes and keys each
 * reference; undefined as soon as one is invalid (explain() then says why).
 */
function requested(references: ResourceReference[]): RequestedResource[] | undefined {
  const resources: RequestedResource[] = [];
  for (let index = 0; index < references.length; index++) {
    const { platform, type, identifier } = references[index]!;
    if (!add(resources, platform, type, identifier)) return undefined;
  }
  return resources;
}

/** The same from the fields of a body read without JSON.parse: platform, type, identifier of each reference in turn. */
function requestedFields(fields: readonly string[]): RequestedResource[] | undefined {
  const resources: RequestedResource[] = [];
  for (let index = 0; index < fields.length; index += 3) {
    if (!add(resources, fields[index]!, fields[index + 1]!, fields[index + 2]!)) return undefined;
  }
  return resources;
}

/** Adds a reference unless it was sent before; false when it is not valid. */
function add(resources: RequestedResource[], platform: string, type: string, identifier: string): boolean {
  const resource = identifierSyntax(platform, type)?.requested(identifier);
  if (resource === undefined) return false;
  if (!sentBefore(resources, platform, type, identifier)) resources.push(resource);
  return true;
}

/**
 * docs/api.md#a-9: duplicates are the same platform, type and identifier as sent. At most ten
 * references: comparing pairs allocates nothing, unlike a set of joined strings.
 */
function sentBefore(resources: readonly RequestedResource[], platform: string, type: string, identifier: string): boolean {
  for (const seen of resources) {
    if (seen.identifier === identifier && seen.type === type && seen.platform === platform) return true;
  }
  return false;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const blank = (value: unknown) => value === undefined || value === null || value === '';

/** docs/api.md#a-40: an unknown platform's message lists the codes there are. */
const acceptedPlatforms = platformCodes.join(', ');

const echo = (value: string) => (value.length > limits.maxEchoedIdentifier ? `${value.slice(0, limits.maxEchoedIdentifier)}...` : value);

function explain(body: unknown): string[] {
  if (!isObject(body)) return ['Request body must be a JSON object'];
  const { resources } = body;
  if (blank(resources) || (Array.isArray(resources) && resources.length === 0)) return [blankResources];
  if (!Array.isArray(resources)) return ['Resources must be an array of resource references'];
  const errors = new Set<string>();
  const limit = limits.maxResourcesPerRequest;
  if (resources.length > limit) errors.add(`Resources is too long (maximum is ${limit} resources)`);
  // docs/api.md#a-41: checking stops at a few problems or a bounded number of references, so a
  // refusal costs little however many references a body holds.
  const { maxMessages, maxReferences } = limits.explained;
  let index = 0;
  for (; index < resources.length && index < maxReferences && errors.size < maxMessages; index++) {
    for (const message of explainReference(resources[index], index)) errors.add(message);
  }
  if (index < resources.length) {
    const listed = [...errors].slice(0, maxMessages);
    return [...listed, `Resources after element ${index} were not checked (${resources.length} sent)`];
  }
  return [...errors];
}

function explainReference(element: unknown, index: number): string[] {
  if (!isObject(element)) return [`Resources element ${index + 1} must be an object with platform, type and identifier`];
  const errors: string[] = [];
  const field = (name: 'platform' | 'type' | 'identifier'): string | undefined => {
    const value = element[name];
    if (blank(value)) errors.push(`Resources ${name} can't be blank`);
    else if (typeof value !== 'string') errors.push(`Resources ${name} must be a string`);
    else return value;
    return undefined;
  };
  const platformCode = field('platform');
  const type = field('type');
  const identifier = field('identifier');
  if (platformCode === undefined) return errors;
  const platform = platforms.get(platformCode as PlatformCode);
  if (!platform) return [...errors, `Resources platform '${echo(platformCode)}' is not supported: use one of ${acceptedPlatforms}`];
  if (type === undefined) return errors;
  const syntax = identifierSyntax(platform.code, type);
  if (!syntax) return [...errors, `Resources type '${echo(type)}' is not supported on platform '${platform.code}'`];
  if (identifier !== undefined && !syntax.isValid(identifier)) {
    errors.push(
      `Resources identifier '${echo(identifier)}' is not valid on platform '${platform.code}': ${identifierProblem(syntax.rule, identifier)}`,
    );
  }
  return errors;
}

/** `https://...`, `//host/...`, `www.` or `host.tld/...`: an address where a name belongs. */
const urlLike = /^(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/|\/\/|www\.)|^[^\s/]+\.[A-Za-z]{2,}\//;
const notInAnyIdentifier = /[\s?#/]/;

/**
 * The hint of a refused identifier (docs/api.md#identifier-hints): first what to send, the platform's hint
 * and its form in words, then the first rule this one breaks. Only refused requests come here.
 */
export function identifierProblem(rule: IdentifierRule, identifier: string): string {
  return `${rule.hint} (${rule.syntax}); this one ${brokenRule(rule, identifier)}`;
}

/**
 * Checked in the order of docs/api.md#identifier-hints: an address; a space, `?`, `#` or `/`; a post
 * without its author part; a character the platform does not use; the length; the rule's own
 * check beyond its form (`refines`); else the form.
 */
function brokenRule(rule: IdentifierRule, identifier: string): string {
  if (urlLike.test(identifier)) return 'is a URL';
  const forbidden = notInAnyIdentifier.exec(identifier)?.[0];
  if (forbidden !== undefined) return `contains ${/\s/.test(forbidden) ? 'a space' : `'${forbidden}'`}`;
  if (rule.authorPart && !identifier.includes(':')) return `has no '${rule.authorPart}:' part`;
  for (const character of identifier) {
    if (!rule.allowedCharacter.test(character)) return `contains '${character}', which is not allowed`;
  }
  // UTF-16 units, as the compiled check counts them.
  const { length } = identifier;
  if (length < rule.minLength || length > rule.maxLength) {
    const bounds = rule.minLength === rule.maxLength ? `${rule.maxLength}` : `${rule.minLength} to ${rule.maxLength}`;
    return `is ${length} characters long, not ${bounds}`;
  }
  if (rule.pattern.test(identifier) && rule.refines) return rule.refines.problem;
  return 'does not fit that form';
}
